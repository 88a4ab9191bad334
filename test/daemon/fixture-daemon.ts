import { join } from "node:path";
import { type DaemonOptions, startDaemon } from "../../src/daemon/index.ts";
import { systemClock } from "../../src/util/clock.ts";
import type { LoopFixture } from "../loops/loop-fixture.ts";

/** A daemon over a loop fixture's store and home, ticking every 100 ms, quiet; `more` adds or overrides. */
export function fixtureDaemon(fx: LoopFixture, more: Partial<DaemonOptions> = {}) {
  return startDaemon({
    store: fx.store,
    dbPath: join(fx.dir, "loops.db"),
    home: fx.home,
    clock: systemClock(),
    env: fx.deps().env,
    limitConfig: {},
    tickMs: 100,
    pollMs: 100,
    log: () => undefined,
    ...more,
  });
}
