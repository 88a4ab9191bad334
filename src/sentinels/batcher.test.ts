import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JournaledEvent } from "../events/index.ts";
import type { SentinelExecution } from "../hank/schema/index.ts";
import { createFakeClock } from "../testing/fake-clock.ts";
import { createBatcher, MAX_HELD_EVENTS } from "./batcher.ts";
import { eventOf } from "./test-support.ts";

function batching(execution: SentinelExecution) {
  const clock = createFakeClock({ start: 0 });
  const batches: { at: number; ids: string[] }[] = [];
  const batcher = createBatcher(execution, clock, (events: readonly JournaledEvent[]) => {
    batches.push({ at: clock.now(), ids: events.map((event) => event.id) });
  });
  const add = (): string => {
    const event = eventOf("tool.result");
    batcher.add([event]);
    return event.id;
  };
  return { clock, batches, batcher, add };
}

describe("sentinel execution strategies", () => {
  it("immediate: every match is a trigger at once", () => {
    const { batches, add } = batching({ strategy: "immediate" });
    const a = add();
    const b = add();
    assert.deepEqual(batches, [
      { at: 0, ids: [a] },
      { at: 0, ids: [b] },
    ]);
  });

  it("debounce: matches gather until the quiet period passes, each match restarting it", () => {
    const { clock, batches, add } = batching({ strategy: "debounce", milliseconds: 1000 });
    const a = add();
    clock.advance(900);
    const b = add();
    clock.advance(900);
    assert.deepEqual(batches, [], "the second match moved the deadline to 1900");
    clock.advance(100);
    assert.deepEqual(batches, [{ at: 1900, ids: [a, b] }]);
    const c = add();
    clock.advance(1000);
    assert.deepEqual(batches.at(-1), { at: 2900, ids: [c] });
    assert.deepEqual(clock.pending(), []);
  });

  it("count: every `threshold` events make a trigger; flush sends the remainder", () => {
    const { batches, batcher, add } = batching({ strategy: "count", threshold: 2 });
    const ids = [add(), add(), add()];
    assert.deepEqual(batches, [{ at: 0, ids: ids.slice(0, 2) }]);
    assert.equal(batcher.pending(), 1);
    batcher.flush();
    assert.deepEqual(batches.at(-1), { at: 0, ids: ids.slice(2) });
    batcher.flush();
    assert.equal(batches.length, 2, "nothing left to flush");
  });

  it("timeWindow: fixed windows anchored at the first match; an empty window arms no timer", () => {
    const { clock, batches, add } = batching({ strategy: "timeWindow", milliseconds: 1000 });
    const a = add();
    clock.advance(400);
    const b = add();
    clock.advance(600);
    assert.deepEqual(batches, [{ at: 1000, ids: [a, b] }]);
    assert.deepEqual(clock.pending(), [], "no match waits, so no timer runs");
    clock.advance(1500);
    const c = add();
    assert.deepEqual(
      clock.pending().map((t) => t.dueAt),
      [3000],
      "the window of t=2500 ends at 3000",
    );
    clock.advance(500);
    assert.deepEqual(batches.at(-1), { at: 3000, ids: [c] });
  });

  it("flush sends held events at once and disarms the timer; stop drops them", () => {
    const debounce = batching({ strategy: "debounce", milliseconds: 5000 });
    const a = debounce.add();
    debounce.batcher.flush();
    assert.deepEqual(debounce.batches, [{ at: 0, ids: [a] }]);
    assert.deepEqual(debounce.clock.pending(), []);
    const window = batching({ strategy: "timeWindow", milliseconds: 5000 });
    window.add();
    window.batcher.stop();
    window.clock.advance(10_000);
    assert.deepEqual(window.batches, []);
    assert.equal(window.batcher.pending(), 0);
  });

  it("a debounce that holds MAX_HELD_EVENTS sends them without waiting", () => {
    const { clock, batches, add } = batching({ strategy: "debounce", milliseconds: 60_000 });
    for (let i = 0; i < MAX_HELD_EVENTS; i++) add();
    assert.deepEqual(
      batches.map((b) => [b.at, b.ids.length]),
      [[0, MAX_HELD_EVENTS]],
    );
    assert.deepEqual(clock.pending(), []);
  });
});
