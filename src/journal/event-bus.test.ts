import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { JournaledEvent, JournaledType } from "../events/events.ts";
import { createEventBus, type EventBus, type Subscription } from "./event-bus.ts";
import { type AsyncDelivery, isOverflowNotice } from "./event-bus-queue.ts";
import { JournalError } from "./journal-error.ts";
import { type EventDraft, JournalWriter } from "./journal-writer.ts";
import { MemoryEventStore } from "./memory-event-store.ts";

let dir = "";
let writer: JournalWriter;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hankweave-bus-"));
  writer = JournalWriter.open(join(dir, "events.jsonl"));
});
afterEach(() => {
  writer.close();
  rmSync(dir, { recursive: true, force: true });
});

function info(message: string): EventDraft<"info"> {
  return { type: "info", data: { message } };
}

/** What the event sink does: journal first, then publish. */
function emitter(bus: EventBus): (count?: number) => JournaledEvent[] {
  return (count = 1) =>
    Array.from({ length: count }, () => {
      const event = writer.append(info(`event ${writer.lastSeq + 1}`));
      bus.publish(event);
      return event;
    });
}

/** A promise the test settles by hand, to hold an async listener where the test wants it. */
function gate(): { readonly promise: Promise<void>; open(): void } {
  let open = (): void => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

function seqs(deliveries: readonly AsyncDelivery[]): (number | string)[] {
  return deliveries.map((d) =>
    isOverflowNotice(d) ? `overflow ${d.droppedFromSeq}..${d.droppedToSeq}` : d.seq,
  );
}

/** Lets queued microtasks and pending callbacks run, so a test can see that something did not happen. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("event bus", () => {
  it("calls sync subscribers inline and in order, with the events published after they subscribed", () => {
    const bus = createEventBus({ history: writer.path });
    const emit = emitter(bus);
    const calls: string[] = [];
    emit();
    bus.subscribe((event) => calls.push(`a${event.seq}`));
    bus.subscribe((event) => calls.push(`b${event.seq}`));
    emit(2);
    assert.deepEqual(calls, ["a2", "b2", "a3", "b3"]);
  });

  it("isolates a throwing sync and a rejecting async subscriber, and warns once for each", async () => {
    const warnings: string[] = [];
    const bus = createEventBus({ history: writer.path, onWarning: (message) => warnings.push(message) });
    const emit = emitter(bus);
    const thrower: number[] = [];
    const rejecter: AsyncDelivery[] = [];
    const healthy: number[] = [];
    const healthyAsync: AsyncDelivery[] = [];
    bus.subscribe(
      (event) => {
        thrower.push(event.seq);
        throw new Error("sync boom");
      },
      { name: "thrower" },
    );
    bus.subscribe(
      async (delivery) => {
        rejecter.push(delivery);
        throw new Error("async boom");
      },
      { mode: "async", name: "rejecter" },
    );
    bus.subscribe((event) => healthy.push(event.seq));
    bus.subscribe(async (delivery) => void healthyAsync.push(delivery), { mode: "async" });
    bus.subscribe(() => Promise.reject(new Error("returned a rejection")), { name: "promiser" });

    assert.doesNotThrow(() => emit(3));
    await bus.close();
    for (const seen of [thrower, seqs(rejecter), healthy, seqs(healthyAsync)])
      assert.deepEqual(seen, [1, 2, 3]);
    assert.equal(warnings.length, 3);
    assert.match(warnings[0] ?? "", /'thrower' failed on event 1 \(info\): sync boom/);
    assert.ok(warnings.some((w) => /'rejecter' failed on event 1 \(info\): async boom/.test(w)));
    assert.ok(warnings.some((w) => /'promiser' failed on event 1 \(info\): returned a rejection/.test(w)));
  });

  it("delivers an event published from inside a listener after the current one reached everyone", () => {
    let emit: (count?: number) => JournaledEvent[] = () => [];
    // The runner turns a warning into an event: a publish in the middle of a publish.
    const bus = createEventBus({ history: writer.path, onWarning: () => emit() });
    emit = emitter(bus);
    const first: number[] = [];
    const second: number[] = [];
    bus.subscribe((event) => {
      first.push(event.seq);
      if (event.seq === 1) throw new Error("fails once");
    });
    bus.subscribe((event) => second.push(event.seq));
    emit();
    assert.deepEqual(first, [1, 2]);
    assert.deepEqual(second, [1, 2]);
  });

  it("never lets a slow async subscriber hold up publish; its full queue becomes one overflow notice", async () => {
    const warnings: string[] = [];
    const bus = createEventBus({ history: writer.path, onWarning: (message) => warnings.push(message) });
    const emit = emitter(bus);
    const slow: AsyncDelivery[] = [];
    const started = gate();
    const release = gate();
    bus.subscribe(
      async (delivery) => {
        slow.push(delivery);
        started.open();
        await release.promise;
      },
      { mode: "async", maxQueue: 3, name: "slow" },
    );
    const fast: number[] = [];
    bus.subscribe((event) => fast.push(event.seq));

    emit();
    await started.promise;
    emit(10);
    assert.deepEqual(fast, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], "publish went on while the listener waited");
    assert.deepEqual(seqs(slow), [1]);
    release.open();
    emit();
    await bus.close();

    assert.deepEqual(seqs(slow), [1, "overflow 2..11", 12]);
    assert.equal(warnings.length, 1, "the first overflow is reported, the later ones widen the same notice");
    assert.match(warnings[0] ?? "", /'slow' fell more than 3 events behind: events 2\.\.5 were dropped/);
    const notice = slow[1];
    assert.ok(notice !== undefined && isOverflowNotice(notice));
    const missing = bus.readSince(notice.droppedFromSeq - 1).filter((e) => e.seq <= notice.droppedToSeq);
    assert.deepEqual(
      missing.map((e) => e.seq),
      [2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
      "the journal holds exactly what was dropped",
    );
  });

  it("catches a late async subscriber up from the journal, then goes live, each event exactly once", async () => {
    const bus = createEventBus({ history: writer.path });
    const emit = emitter(bus);
    emit(5);
    const received: AsyncDelivery[] = [];
    const catchingUp = gate();
    const release = gate();
    bus.subscribe(
      async (delivery) => {
        received.push(delivery);
        if (received.length === 1) {
          catchingUp.open();
          await release.promise;
        }
      },
      { mode: "async", fromSeq: 2 },
    );
    emit();
    await catchingUp.promise;
    emit(3);
    release.open();
    await bus.close();
    assert.deepEqual(seqs(received), [3, 4, 5, 6, 7, 8, 9]);
  });

  it("catches up subscribers added in the middle of a batch that is journaled but not yet all published", async () => {
    const bus = createEventBus({ history: writer.path });
    const emit = emitter(bus);
    emit(2);
    const lateSync: number[] = [];
    const lateAsync: AsyncDelivery[] = [];
    const liveOnly: number[] = [];
    bus.subscribe((event) => {
      if (event.seq !== 3) return;
      bus.subscribe((e) => lateSync.push(e.seq), { fromSeq: 1 });
      bus.subscribe(async (d) => void lateAsync.push(d), { mode: "async", fromSeq: 0 });
      bus.subscribe((e) => liveOnly.push(e.seq));
    });
    // As the sink's `emitAll`: the whole batch is journaled, then each event is published.
    const batch = writer.appendAll(["b1", "b2", "b3"].map((m) => info(m) as EventDraft<JournaledType>));
    for (const event of batch) bus.publish(event);
    emit();
    await bus.close();
    assert.deepEqual(lateSync, [2, 3, 4, 5, 6]);
    assert.deepEqual(seqs(lateAsync), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(liveOnly, [4, 5, 6], "without fromSeq: from the next event on");
  });

  it("catches up from an in-memory store given as the history", () => {
    const store = new MemoryEventStore();
    const bus = createEventBus({ history: (seq) => store.readSince(seq) });
    for (const n of [1, 2, 3]) bus.publish(store.append(info(`m${n}`)));
    const seen: number[] = [];
    bus.subscribe((event) => seen.push(event.seq), { fromSeq: 1 });
    bus.publish(store.append(info("m4")));
    assert.deepEqual(seen, [2, 3, 4]);
    assert.deepEqual(
      bus.readSince(2).map((event) => event.seq),
      [3, 4],
    );
  });

  it("unsubscribes from inside a listener during publish: itself, a later subscriber, an async one", async () => {
    const bus = createEventBus();
    const store = new MemoryEventStore();
    const publish = (): void => bus.publish(store.append(info("m")));
    const a: number[] = [];
    const b: number[] = [];
    const c: number[] = [];
    const slow: AsyncDelivery[] = [];
    const started = gate();
    const release = gate();
    let subscriptionB: Subscription | undefined;
    const subscriptionA = bus.subscribe((event) => {
      a.push(event.seq);
      if (event.seq === 2) subscriptionB?.unsubscribe();
      if (event.seq === 3) subscriptionA.unsubscribe();
    });
    subscriptionB = bus.subscribe((event) => b.push(event.seq));
    bus.subscribe((event) => c.push(event.seq));
    const asyncSubscription = bus.subscribe(
      async (delivery) => {
        slow.push(delivery);
        started.open();
        await release.promise;
      },
      { mode: "async" },
    );
    publish();
    await started.promise;
    publish();
    publish();
    publish();
    asyncSubscription.unsubscribe();
    asyncSubscription.unsubscribe();
    release.open();
    await bus.close();
    assert.deepEqual(a, [1, 2, 3]);
    assert.deepEqual(b, [1]);
    assert.deepEqual(c, [1, 2, 3, 4]);
    assert.deepEqual(seqs(slow), [1], "the queued events were dropped with the subscription");
  });

  it("close waits for async subscribers to drain, then refuses publish and subscribe", async () => {
    const bus = createEventBus({ history: writer.path });
    const emit = emitter(bus);
    const received: AsyncDelivery[] = [];
    const release = gate();
    bus.subscribe(
      async (delivery) => {
        await release.promise;
        received.push(delivery);
      },
      { mode: "async" },
    );
    emit(3);
    let closed = false;
    const closing = bus.close().then(() => {
      closed = true;
    });
    await settle();
    assert.equal(closed, false, "close waits for the queued events");
    const refused = (error: unknown): boolean => error instanceof JournalError && error.code === "closed";
    assert.throws(() => bus.publish(writer.append(info("late"))), refused);
    assert.throws(() => bus.subscribe(() => {}), refused);
    release.open();
    await closing;
    assert.deepEqual(seqs(received), [1, 2, 3]);
  });

  it("throws on misuse: seq out of order, fromSeq without a history, a history behind the bus", () => {
    const store = new MemoryEventStore();
    const first = store.append(info("one"));
    const bus = createEventBus();
    bus.publish(first);
    assert.throws(() => bus.publish(first), /published after seq 1/);
    assert.throws(() => bus.subscribe(() => {}, { fromSeq: 0 }), /no history/);
    assert.throws(() => bus.readSince(0), /no history/);
    const behind = createEventBus({ history: () => [] });
    behind.publish(first);
    assert.throws(() => behind.subscribe(() => {}, { fromSeq: 0 }), /must hold every event/);
    assert.throws(() => createEventBus({ maxQueue: 0 }), RangeError);
    assert.throws(() => behind.subscribe(async () => {}, { mode: "async", maxQueue: 1.5 }), RangeError);
    assert.throws(() => behind.subscribe(() => {}, { fromSeq: -1 }), RangeError);
  });
});
