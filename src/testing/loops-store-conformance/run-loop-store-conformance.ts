import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { LoopStore } from "../../loops/store/loop-store.ts";
import { RUN_CASES } from "./run-cases.ts";
import { DURABILITY_CASES, LOG_CASES, type LoopStoreCase } from "./store-cases.ts";
import type { LoopStoreTarget } from "./store-fixture.ts";

/** Every case, in the order they run. */
export const LOOP_STORE_CASES: readonly LoopStoreCase[] = [...RUN_CASES, ...LOG_CASES, ...DURABILITY_CASES];

/**
 * Registers (with node:test) the behaviour every `LoopStore` must show: idempotent admission with the
 * loop's concurrency, one lease holder with fencing tokens, transitions checked against the state
 * table and the stored state, written with their events and effects, FIFO queue promotion, upserted
 * generations, an ordered inbox, commands settled by the driver, an event log readable after any
 * sequence number, an effect outbox, and (with `reopen`) durability. Each case gets a fresh temporary
 * directory; a case listed in `target.limitations` runs as `todo`.
 *
 * ```ts
 * runLoopStoreConformance("sqlite", { open: (dir) => openSqliteLoopStore({ path: join(dir, "loops.db") }) });
 * ```
 */
export function runLoopStoreConformance(name: string, target: LoopStoreTarget): void {
  describe(`${name}: loop store conformance`, () => {
    for (const storeCase of LOOP_STORE_CASES) {
      const durability = DURABILITY_CASES.includes(storeCase);
      const limitation = target.limitations?.[storeCase.id];
      const options =
        durability && target.reopen === undefined
          ? { skip: "the store does not reopen" }
          : limitation !== undefined
            ? { todo: limitation }
            : {};
      it(storeCase.title, options, () => withStore(target, storeCase));
    }
  });
}

async function withStore(target: LoopStoreTarget, storeCase: LoopStoreCase): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "loop-store-"));
  const open: LoopStore[] = [await target.open(dir)];
  try {
    const first = open[0] as LoopStore;
    await storeCase.run({
      store: first,
      dir,
      reopen: async () => {
        await first.close();
        open.shift();
        const again = await (target.reopen ?? target.open)(dir);
        open.push(again);
        return again;
      },
    });
  } finally {
    for (const store of open) await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
