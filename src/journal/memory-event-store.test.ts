import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JournaledType } from "../events/events.ts";
import { JournalError } from "./journal-error.ts";
import type { EventDraft } from "./journal-writer.ts";
import { MemoryEventStore } from "./memory-event-store.ts";

function info(message: string): EventDraft<"info"> {
  return { type: "info", data: { message } };
}

/** Ids `e1`, `e2`, ... and one second per event, as the journal writer's tests use. */
function counting(): { now: () => Date; newId: () => string } {
  let tick = 0;
  return { now: () => new Date(Date.UTC(2025, 0, 1) + tick * 1000), newId: () => `e${++tick}` };
}

describe("memory event store", () => {
  it("writes the journal writer's envelope with the given clock and ids, or the draft's own", () => {
    const store = new MemoryEventStore(counting());
    assert.deepEqual(store.append(info("x")), {
      v: 1,
      id: "e1",
      seq: 1,
      timestamp: "2025-01-01T00:00:01.000Z",
      type: "info",
      data: { message: "x" },
    });
    const own = store.append({ ...info("y"), id: "mine", timestamp: "2024-05-05T05:05:05.000Z" });
    assert.deepEqual([own.id, own.timestamp, own.seq], ["mine", "2024-05-05T05:05:05.000Z", 2]);
    assert.equal(store.lastSeq, 2);
  });

  it("continues seq after seed events and refuses seeds out of order", () => {
    const first = new MemoryEventStore();
    first.append(info("a"));
    first.append(info("b"));
    const second = new MemoryEventStore({ events: first.readSince(0) });
    assert.equal(second.append(info("c")).seq, 3);
    assert.deepEqual(
      second.readSince(1).map((event) => event.seq),
      [2, 3],
    );
    const [a, b] = first.readSince(0);
    assert.ok(a !== undefined && b !== undefined);
    assert.throws(() => new MemoryEventStore({ events: [b, a] }), RangeError);
  });

  it("validates payloads when asked, before storing anything", () => {
    const store = new MemoryEventStore({ validate: true });
    const bad = { type: "info", data: { text: "x" } } as unknown as EventDraft<"info">;
    assert.throws(
      () => store.appendAll([info("fine"), bad].map((draft) => draft as EventDraft<JournaledType>)),
      (error: unknown) => error instanceof JournalError && error.code === "invalid-event",
    );
    assert.equal(store.lastSeq, 0);
    assert.deepEqual(store.readSince(0), []);
  });

  it("returns fresh objects from every read", () => {
    const store = new MemoryEventStore();
    store.append(info("x"));
    const [once] = store.readSince(0);
    const [twice] = store.readSince(0);
    assert.deepEqual(once, twice);
    assert.notEqual(once, twice);
  });
});
