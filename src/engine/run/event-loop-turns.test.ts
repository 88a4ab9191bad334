import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import { EventLoopTurns } from "./event-loop-turns.ts";

/** Whether a callback queued for the next turn of the event loop ran while `step` was awaited. */
async function turnedDuring(step: () => Promise<void>): Promise<boolean> {
  let turned = false;
  const marker = setImmediate(() => {
    turned = true;
  });
  await step();
  clearImmediate(marker);
  return turned;
}

describe("EventLoopTurns", () => {
  it("turns the event loop at the first boundary, then not until the run has been busy long enough", async () => {
    const turns = new EventLoopTurns(60_000);
    assert.equal(await turnedDuring(() => turns.atBoundary()), true);
    assert.equal(await turnedDuring(() => turns.atBoundary()), false);
    assert.equal(await turnedDuring(() => turns.atBoundary()), false);
  });

  it("turns it again once the busy time has passed", async () => {
    const turns = new EventLoopTurns(5);
    await turns.atBoundary();
    const busyUntil = performance.now() + 6;
    while (performance.now() < busyUntil) {
      // the run keeping the loop busy
    }
    assert.equal(await turnedDuring(() => turns.atBoundary()), true);
    await nextTurn();
  });

  it("turns it at every boundary with no busy time allowed", async () => {
    const turns = new EventLoopTurns(0);
    for (let boundary = 0; boundary < 3; boundary++) {
      assert.equal(await turnedDuring(() => turns.atBoundary()), true);
    }
  });
});
