import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JournaledType } from "../events/events.ts";
import type { EventDraft } from "./envelope.ts";
import { JournalError } from "./journal-error.ts";
import { createUnkeptEventStore } from "./unkept-event-store.ts";

const info = (message: string): EventDraft<JournaledType> => ({ type: "info", data: { message } });

describe("the event store that keeps nothing", () => {
  it("envelopes and numbers events as the journal does, one by one and in batches", () => {
    let tick = 0;
    const store = createUnkeptEventStore({
      now: () => new Date(Date.UTC(2025, 0, 1) + tick * 1000),
      newId: () => `e${++tick}`,
    });
    assert.deepEqual(store.append(info("a")), {
      v: 1,
      id: "e1",
      seq: 1,
      timestamp: "2025-01-01T00:00:01.000Z",
      type: "info",
      data: { message: "a" },
    });
    assert.deepEqual(
      store.appendAll([info("b"), info("c")]).map((event) => event.seq),
      [2, 3],
    );
    assert.equal(store.append(info("d")).seq, 4);
  });

  it("numbers none of a batch with a connection event in it", () => {
    const store = createUnkeptEventStore();
    store.append(info("a"));
    const connection = { type: "server.ready", data: {} } as unknown as EventDraft<JournaledType>;
    assert.throws(
      () => store.appendAll([info("b"), connection]),
      (error: unknown) => error instanceof JournalError && error.code === "connection-event",
    );
    assert.equal(store.append(info("c")).seq, 2);
  });
});
