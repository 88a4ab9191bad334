import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createEventBus, type JournaledEvent, MemoryEventStore } from "../journal/index.ts";
import { ClientFeed } from "./client-feed.ts";
import { LiveFanOut } from "./live-fan-out.ts";

/** A journal and its bus, as the host has them: each event is stored first, then published. */
function journaledBus() {
  const store = new MemoryEventStore();
  const bus = createEventBus({ history: (afterSeq) => store.readSince(afterSeq) });
  const emit = (message: string): JournaledEvent => {
    const event = store.append({ type: "info", data: { message } });
    bus.publish(event);
    return event;
  };
  return { store, bus, emit };
}

/** A client's feed whose socket always keeps up: it records the seqs it sends. */
function recordingFeed(afterSeq: number, readSince: (afterSeq: number) => readonly JournaledEvent[]) {
  const sent: number[] = [];
  const feed = new ClientFeed(
    {
      send: (event) => {
        sent.push(event.seq);
        return undefined;
      },
      readSince,
    },
    100,
    afterSeq,
  );
  return { feed, sent };
}

describe("LiveFanOut", () => {
  it("hands every published event to each feed once, in order, through one subscription", () => {
    const { store, bus, emit } = journaledBus();
    const fanOut = new LiveFanOut(bus);
    const first = recordingFeed(0, (seq) => store.readSince(seq));
    const second = recordingFeed(0, (seq) => store.readSince(seq));
    fanOut.add(first.feed, undefined);
    fanOut.add(second.feed, undefined);
    for (const message of ["a", "b", "c"]) emit(message);
    assert.deepEqual(first.sent, [1, 2, 3]);
    assert.deepEqual(second.sent, [1, 2, 3]);
  });

  it("catches a feed up from the journal above afterSeq before its live events, with no duplicate", () => {
    const { store, bus, emit } = journaledBus();
    const fanOut = new LiveFanOut(bus);
    const early = recordingFeed(0, (seq) => store.readSince(seq));
    fanOut.add(early.feed, undefined);
    for (const message of ["a", "b", "c", "d"]) emit(message);
    // The client shook hands when the journal held 2 events; 3 and 4 were published since.
    const late = recordingFeed(2, (seq) => store.readSince(seq));
    fanOut.add(late.feed, 2);
    assert.deepEqual(late.sent, [3, 4], "the catch-up is inline");
    // An event journaled but not yet published when the feed was added is read, then skipped live.
    const journaledOnly = store.append({ type: "info", data: { message: "e" } });
    const newest = recordingFeed(4, (seq) => store.readSince(seq));
    fanOut.add(newest.feed, 4);
    bus.publish(journaledOnly);
    emit("f");
    assert.deepEqual(newest.sent, [5, 6]);
    assert.deepEqual(late.sent, [3, 4, 5, 6]);
    assert.deepEqual(early.sent, [1, 2, 3, 4, 5, 6]);
  });

  it("keeps delivering to the other feeds when one throws, and stops a removed feed", () => {
    const { store, bus, emit } = journaledBus();
    const fanOut = new LiveFanOut(bus);
    const broken = {
      offers: 0,
      offer(): void {
        this.offers += 1;
        throw new Error("socket gone");
      },
    };
    const healthy = recordingFeed(0, (seq) => store.readSince(seq));
    fanOut.add(broken, undefined);
    fanOut.add(healthy.feed, undefined);
    emit("a");
    fanOut.remove(broken);
    emit("b");
    assert.equal(broken.offers, 1);
    assert.deepEqual(healthy.sent, [1, 2]);
  });

  it("ends its subscription on stop: nothing more reaches the feeds it had", () => {
    const { store, bus, emit } = journaledBus();
    const fanOut = new LiveFanOut(bus);
    const feed = recordingFeed(0, (seq) => store.readSince(seq));
    fanOut.add(feed.feed, undefined);
    emit("a");
    fanOut.stop();
    emit("b");
    assert.deepEqual(feed.sent, [1]);
  });
});
