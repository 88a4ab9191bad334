import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import { WriteClock } from "./write-clock.ts";

describe("WriteClock", () => {
  it("flushes a request after a quiet spell once the burst is done, every writer waiting in order", async () => {
    const clock = new WriteClock(50);
    const flushed: string[] = [];
    clock.request(() => flushed.push("a"));
    clock.request(() => flushed.push("b"));
    assert.deepEqual(flushed, [], "nothing is written inside the burst");
    await nextTurn();
    assert.deepEqual(flushed, ["a", "b"]);
  });

  it("holds a request that follows a flush until the interval has passed", async () => {
    const clock = new WriteClock(50);
    let first = 0;
    clock.request(() => {
      first = performance.now();
    });
    await nextTurn();
    const second = new Promise<number>((resolve) => clock.request(() => resolve(performance.now())));
    await nextTurn();
    const settled = await Promise.race([second.then(() => true), nextTurn().then(() => false)]);
    assert.equal(settled, false, "the second flush waits");
    // Timers may fire a millisecond early against performance.now(); the interval is what matters.
    assert.ok((await second) - first >= 48, "at least the interval after the first flush");
  });
});
