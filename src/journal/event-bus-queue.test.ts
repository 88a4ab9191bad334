import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JournaledEvent } from "../events/events.ts";
import { type AsyncDelivery, DeliveryQueue, isOverflowNotice } from "./event-bus-queue.ts";

function event(seq: number): JournaledEvent {
  return {
    v: 1,
    id: `e${seq}`,
    seq,
    timestamp: "2025-01-01T00:00:00.000Z",
    type: "info",
    data: { message: `m${seq}` },
  };
}

function drain(queue: DeliveryQueue): (number | string)[] {
  const out: (number | string)[] = [];
  for (let next: AsyncDelivery | undefined = queue.take(); next !== undefined; next = queue.take()) {
    out.push(isOverflowNotice(next) ? `overflow ${next.droppedFromSeq}..${next.droppedToSeq}` : next.seq);
  }
  return out;
}

describe("delivery queue", () => {
  it("delivers the backlog first, then live events, and does not count the backlog against the bound", () => {
    const queue = new DeliveryQueue([event(1), event(2), event(3)], 2);
    assert.equal(queue.push(event(4)), null);
    assert.equal(queue.push(event(5)), null);
    assert.equal(queue.size, 5);
    assert.deepEqual(drain(queue), [1, 2, 3, 4, 5]);
    assert.equal(queue.size, 0);
  });

  it("replaces a full queue and the new event with one notice, widened by later overflows", () => {
    const queue = new DeliveryQueue([], 2);
    queue.push(event(1));
    queue.push(event(2));
    assert.deepEqual(queue.push(event(3)), { kind: "overflow", droppedFromSeq: 1, droppedToSeq: 3 });
    assert.equal(queue.push(event(4)), null);
    assert.deepEqual(queue.push(event(5)), { kind: "overflow", droppedFromSeq: 1, droppedToSeq: 5 });
    assert.equal(queue.push(event(6)), null);
    assert.deepEqual(drain(queue), ["overflow 1..5", 6]);
  });

  it("starts a new notice after the previous one was taken", () => {
    const queue = new DeliveryQueue([], 1);
    queue.push(event(1));
    queue.push(event(2));
    assert.deepEqual(drain(queue), ["overflow 1..2"]);
    queue.push(event(3));
    assert.deepEqual(queue.push(event(4)), { kind: "overflow", droppedFromSeq: 3, droppedToSeq: 4 });
  });

  it("keeps order across compaction of a long queue taken while it grows", () => {
    const queue = new DeliveryQueue([], 10_000);
    const taken: (number | string)[] = [];
    for (let seq = 1; seq <= 6_000; seq++) {
      queue.push(event(seq));
      if (seq % 3 === 0) {
        const next = queue.take();
        assert.ok(next !== undefined && !isOverflowNotice(next));
        taken.push(next.seq);
      }
    }
    taken.push(...drain(queue));
    assert.deepEqual(
      taken,
      Array.from({ length: 6_000 }, (_, i) => i + 1),
    );
  });

  it("clear drops everything and refuses a bound below one", () => {
    const queue = new DeliveryQueue([event(1)], 1);
    queue.push(event(2));
    queue.clear();
    assert.equal(queue.take(), undefined);
    assert.throws(() => new DeliveryQueue([], 0), RangeError);
  });
});
