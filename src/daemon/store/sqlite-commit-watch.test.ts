import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { newRun } from "../../testing/loops-store-conformance/store-fixture.ts";
import { openSqliteLoopStore } from "./sqlite-loop-store.ts";

describe("watchCommits (SQLite wake-ups)", () => {
  it("wakes a daemon's store when another connection commits a run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hw-commit-watch-"));
    const path = join(dir, "loops.db");
    const daemonStore = await openSqliteLoopStore({ path });
    const cliStore = await openSqliteLoopStore({ path });
    try {
      let wakes = 0;
      let woken: () => void = () => undefined;
      const wokenUp = new Promise<void>((resolve) => {
        woken = resolve;
      });
      const stop = daemonStore.watchCommits(() => {
        wakes += 1;
        woken();
      });
      await cliStore.admitRun(newRun("r1"), { concurrency: "allow", initial: "running" });
      // The watch never keeps a process alive on its own (a daemon's server does): this test does.
      const alive = setInterval(() => undefined, 1000);
      await wokenUp;
      clearInterval(alive);
      await stop();
      assert.ok(wakes >= 1);
      assert.equal((await daemonStore.getRun("r1"))?.state, "running");
    } finally {
      await cliStore.close();
      await daemonStore.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
