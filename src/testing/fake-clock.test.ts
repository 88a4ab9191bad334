import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sleep } from "../util/clock.ts";
import { createFakeClock, FAKE_CLOCK_START } from "./fake-clock.ts";

describe("createFakeClock", () => {
  it("starts at 2025-01-01T00:00:00Z, or where told, and moves only on advance", () => {
    const clock = createFakeClock();
    assert.equal(clock.now(), Date.UTC(2025, 0, 1));
    assert.equal(FAKE_CLOCK_START, Date.UTC(2025, 0, 1));
    clock.advance(1500);
    assert.equal(clock.now(), FAKE_CLOCK_START + 1500);
    assert.equal(createFakeClock({ start: 42 }).now(), 42);
  });

  it("fires due timers in due order, ties in the order set, each seeing its own due time", () => {
    const clock = createFakeClock({ start: 0 });
    const fired: string[] = [];
    const note = (name: string) => () => fired.push(`${name}@${clock.now()}`);
    clock.setTimeout(note("late"), 300);
    clock.setTimeout(note("first"), 100);
    clock.setTimeout(note("tie-a"), 200);
    clock.setTimeout(note("tie-b"), 200);
    clock.setTimeout(note("beyond"), 1000);
    clock.advance(300);
    assert.deepEqual(fired, ["first@100", "tie-a@200", "tie-b@200", "late@300"]);
    assert.equal(clock.now(), 300);
    assert.deepEqual(clock.pending(), [{ id: 5, delayMs: 1000, dueAt: 1000 }]);
  });

  it("fires timers set by a callback when they fall inside the window, and not otherwise", () => {
    const clock = createFakeClock({ start: 0 });
    const fired: number[] = [];
    clock.setTimeout(() => {
      clock.setTimeout(() => fired.push(clock.now()), 50);
      clock.setTimeout(() => fired.push(clock.now()), 500);
    }, 100);
    clock.advance(200);
    assert.deepEqual(fired, [150]);
    assert.deepEqual(
      clock.pending().map((t) => t.dueAt),
      [600],
    );
  });

  it("never fires a cleared timer", () => {
    const clock = createFakeClock({ start: 0 });
    let fired = false;
    const handle = clock.setTimeout(() => {
      fired = true;
    }, 10);
    clock.clearTimeout(handle);
    clock.advance(100);
    assert.equal(fired, false);
    assert.deepEqual(clock.pending(), []);
  });

  it("refuses to go back in time", () => {
    assert.throws(() => createFakeClock().advance(-1), RangeError);
    assert.throws(() => createFakeClock().advance(Number.NaN), RangeError);
  });

  it("nextTimer resolves with a matching timer already pending, or with the next one set", async () => {
    const clock = createFakeClock({ start: 0 });
    clock.setTimeout(() => undefined, 100);
    assert.deepEqual(await clock.nextTimer(), { id: 1, delayMs: 100, dueAt: 100 });
    const later = clock.nextTimer((t) => t.delayMs === 5000);
    clock.setTimeout(() => undefined, 20);
    clock.setTimeout(() => undefined, 5000);
    assert.deepEqual(await later, { id: 3, delayMs: 5000, dueAt: 5000 });
  });

  it("advanceToNext waits for the timer, then moves to its due time and fires it", async () => {
    const clock = createFakeClock({ start: 0 });
    const done = sleep(clock, 750);
    const timer = await clock.advanceToNext((t) => t.delayMs === 750);
    await done;
    assert.deepEqual(timer, { id: 1, delayMs: 750, dueAt: 750 });
    assert.equal(clock.now(), 750);
  });

  it("fires a 0 ms timer by itself, without advancing, as a real clock would", async () => {
    const clock = createFakeClock({ start: 0 });
    await sleep(clock, 0);
    assert.equal(clock.now(), 0);
    assert.deepEqual(clock.pending(), []);
  });

  it("lets the engine's sleep be cancelled, clearing its timer", async () => {
    const clock = createFakeClock({ start: 0 });
    const controller = new AbortController();
    const slept = sleep(clock, 1000, controller.signal);
    controller.abort(new Error("stop"));
    await assert.rejects(slept, /stop/);
    assert.deepEqual(clock.pending(), []);
  });
});
