import assert from "node:assert/strict";
import type { EventDraftOf, EventStore } from "../../engine/index.ts";
import {
  type JournaledEvent,
  JournaledEventSchema,
  RECORD_VERSION,
  SAMPLE_DATA,
} from "../../journal/index.ts";
import { appendEach, connectionDraft, info, infos, type StoreFixture } from "./store-fixture.ts";

/** One behaviour every event store must show, run against a fresh temporary directory. */
export interface StoreCase {
  readonly id: string;
  readonly title: string;
  /** `skip` marks the case skipped for a store that lacks an optional part (then `run` returns). */
  run(fixture: StoreFixture, skip: (reason: string) => void): Promise<void>;
}

export type AppendAll = NonNullable<EventStore["appendAll"]>;

/** The store's `appendAll`, bound; undefined for a store that appends batches one by one. */
export function appendAllOf(store: EventStore): AppendAll | undefined {
  return store.appendAll?.bind(store);
}

export const NO_APPEND_ALL = "the store has no appendAll: the sink appends a batch one event at a time";

/** The envelope every store adds: record version, the expected seq, an id, a valid timestamp. */
export function checkEnvelope(event: JournaledEvent, draft: EventDraftOf, seq: number): void {
  assert.equal(event.v, RECORD_VERSION);
  assert.equal(event.seq, seq);
  assert.equal(event.type, draft.type);
  assert.deepEqual(event.data, draft.data);
  assert.ok(event.id.length > 0, "an event has an id");
  const parsed = JournaledEventSchema.safeParse(event);
  assert.ok(parsed.success, `the event parses against the union: ${parsed.error?.message ?? ""}`);
}

const numbering: StoreCase = {
  id: "seq-and-envelope",
  title: "numbers a fresh store's events 1, 2, 3 and returns each with its envelope, as readers read it",
  run: async (fx) => {
    const { store, readSince } = await fx.open();
    const drafts: EventDraftOf[] = [
      info("one"),
      { type: "token.usage", data: SAMPLE_DATA["token.usage"] },
      { type: "codon.started", data: SAMPLE_DATA["codon.started"] },
    ];
    const events = appendEach(store, drafts);
    for (const [index, draft] of drafts.entries()) {
      const event = events[index];
      assert.ok(event !== undefined);
      checkEnvelope(event, draft, index + 1);
    }
    assert.equal(new Set(events.map((event) => event.id)).size, 3, "ids are distinct");
    assert.deepEqual(await readSince(0), events);
  },
};

const batches: StoreCase = {
  id: "append-all",
  title: "appendAll stores a batch in order with consecutive seqs, between single appends",
  run: async (fx, skip) => {
    const { store, readSince } = await fx.open();
    const appendAll = appendAllOf(store);
    if (appendAll === undefined) return skip(NO_APPEND_ALL);
    const first = store.append(info("before")) as JournaledEvent;
    const drafts = infos("batch-", 3);
    const batch = appendAll(drafts) as JournaledEvent[];
    assert.equal(batch.length, 3);
    for (const [index, draft] of drafts.entries()) {
      const event = batch[index];
      assert.ok(event !== undefined);
      checkEnvelope(event, draft, index + 2);
    }
    assert.deepEqual(appendAll([]), [], "an empty batch stores nothing");
    const last = store.append(info("after")) as JournaledEvent;
    assert.equal(last.seq, 5, "seq goes on after the batch (and after the empty one)");
    assert.deepEqual(await readSince(0), [first, ...batch, last]);
  },
};

const atomicBatch: StoreCase = {
  id: "append-all-atomic",
  title: "a batch with a refused draft stores none of its events and leaves seq where it was",
  run: async (fx, skip) => {
    const { store, readSince } = await fx.open();
    const appendAll = appendAllOf(store);
    if (appendAll === undefined) return skip(NO_APPEND_ALL);
    const first = store.append(info("kept")) as JournaledEvent;
    assert.throws(() => appendAll([info("a"), connectionDraft(), info("b")]));
    assert.deepEqual(await readSince(0), [first]);
    assert.equal(store.append(info("next")).seq, 2);
  },
};

const refusal: StoreCase = {
  id: "refuse-connection-event",
  title: "refuses a connection event, which is never journaled, and leaves seq where it was",
  run: async (fx) => {
    const { store, readSince } = await fx.open();
    assert.throws(() => store.append(connectionDraft()));
    assert.deepEqual(await readSince(0), []);
    assert.equal(store.append(info("first")).seq, 1);
  },
};

const reading: StoreCase = {
  id: "read-since",
  title: "readSince returns the events after a seq: from 0, the middle, the last and beyond it",
  run: async (fx) => {
    const { store, readSince } = await fx.open();
    assert.deepEqual(await readSince(0), [], "an empty store reads as empty");
    const events = appendEach(store, infos("m", 5));
    assert.deepEqual(await readSince(0), events);
    assert.deepEqual(await readSince(2), events.slice(2));
    assert.deepEqual(await readSince(4), events.slice(4));
    assert.deepEqual(await readSince(5), []);
    assert.deepEqual(await readSince(1_000), []);
  },
};

const immutability: StoreCase = {
  id: "immutable-records",
  title: "a stored record does not change when the caller changes the data it appended",
  run: async (fx) => {
    const { store, readSince } = await fx.open();
    const data = { message: "as appended" };
    const event = store.append({ type: "info", data });
    data.message = "changed afterwards";
    const [stored] = await readSince(0);
    assert.ok(stored?.type === "info");
    assert.deepEqual([stored.seq, stored.data.message], [event.seq, "as appended"]);
  },
};

/** Cases for every store, in the order they run. */
export const COMMON_CASES: readonly StoreCase[] = [
  numbering,
  batches,
  atomicBatch,
  refusal,
  reading,
  immutability,
];
