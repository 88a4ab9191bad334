import assert from "node:assert/strict";
import { test } from "node:test";
import { openSqliteLoopStore } from "../../daemon/store/sqlite-loop-store.ts";
import { admitted, generation, newRun, T0 } from "../../testing/loops-store-conformance/store-fixture.ts";
import type { LoopStore } from "../store/loop-store.ts";
import { GenerationHistory } from "./generation-history.ts";

/** Counts the store's generation reads and the rows they returned. */
function counting(store: LoopStore) {
  const reads: number[] = [];
  const wrapped = Object.create(store) as LoopStore;
  wrapped.generations = async (runId, fromNumber) => {
    const rows = await store.generations(runId, fromNumber);
    reads.push(rows.length);
    return rows;
  };
  return { wrapped, reads };
}

test("the history is read whole once, then from the last generation on, and sees its updates", async () => {
  const store = await openSqliteLoopStore({ path: ":memory:" });
  try {
    await admitted(store, newRun("r"));
    const token = (await store.acquireLease("r", "d", 0, 10_000)) ?? 0;
    for (const n of [1, 2, 3]) await store.putGeneration(token, generation("r", n, { state: "completed" }));
    const { wrapped, reads } = counting(store);
    const history = new GenerationHistory(wrapped, "r");
    assert.equal((await history.read()).length, 3);
    await store.putGeneration(token, generation("r", 4));
    assert.deepEqual(
      (await history.read()).map((g) => [g.number, g.state]),
      [
        [1, "completed"],
        [2, "completed"],
        [3, "completed"],
        [4, "running"],
      ],
    );
    await store.putGeneration(token, generation("r", 4, { state: "completed", endedAt: T0 }));
    assert.equal((await history.read()).at(-1)?.state, "completed", "the last one is read again");
    assert.deepEqual(reads, [3, 2, 1], "after the first read, only the last known generation and newer");
  } finally {
    await store.close();
  }
});
