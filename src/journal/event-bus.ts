import type { JournaledEvent } from "../events/events.ts";
import {
  type AsyncListener,
  createAsyncSubscriber,
  createSubscriberReport,
  createSyncSubscriber,
  type Subscriber,
  type SubscriberReport,
  type SyncListener,
} from "./event-bus-subscribers.ts";
import { JournalError } from "./journal-error.ts";
import { readSince } from "./journal-reader.ts";

/** The journaled events with seq above `afterSeq`, oldest first. */
export type ReadHistory = (afterSeq: number) => readonly JournaledEvent[];

/** Queue bound of an async subscriber unless the bus or the subscription sets another. */
export const DEFAULT_MAX_QUEUE = 10_000;

export interface EventBusOptions {
  /**
   * Where catch-up and `readSince` read: the journal file (read backwards from its end with the journal's
   * `readSince`, so the cost follows how far back the reader asks, not the journal's length) or a function
   * such as `MemoryEventStore.readSince`. It must hold every event by the time the event is published
   * (journal first, then publish). Without it, `fromSeq` and `readSince` throw.
   */
  readonly history?: string | ReadHistory;
  /**
   * Told once per subscriber about its first failure and once about its first overflow, so the runner
   * can journal one warning each. Must not throw: an error it throws is ignored, since reporting must
   * never break delivery.
   */
  readonly onWarning?: (message: string) => void;
  /** Queue bound of async subscribers that do not set their own (default `DEFAULT_MAX_QUEUE`). */
  readonly maxQueue?: number;
}

interface CommonSubscribeOptions {
  /** Names the subscriber in warnings (default `subscriber <n>`). */
  readonly name?: string;
  /** Deliver every journaled event with seq above this first, then the live ones. */
  readonly fromSeq?: number;
}

export interface SyncSubscribeOptions extends CommonSubscribeOptions {
  readonly mode?: "sync";
}

export interface AsyncSubscribeOptions extends CommonSubscribeOptions {
  readonly mode: "async";
  /** Live events this subscriber may have waiting before its queue overflows. */
  readonly maxQueue?: number;
}

export interface Subscription {
  readonly name: string;
  /** Stops delivery to this subscriber. Idempotent; safe from inside any listener. */
  unsubscribe(): void;
}

export interface EventBus {
  /** Hands an event, already journaled, to every subscriber. Returns without waiting for async ones. */
  publish(event: JournaledEvent): void;
  subscribe(listener: SyncListener, options?: SyncSubscribeOptions): Subscription;
  subscribe(listener: AsyncListener, options: AsyncSubscribeOptions): Subscription;
  /** The journaled events with seq above `afterSeq`, oldest first, from the history (`history.sync`). */
  readSince(afterSeq: number): readonly JournaledEvent[];
  /** Refuses further publishes and subscriptions; resolves once every async subscriber has drained. */
  close(): Promise<void>;
}

/**
 * The event bus behind the event sink: the sink appends each event to the journal (the truth), applies
 * it to the run state, then calls `publish`. The progress printer and tests subscribe with sync listeners,
 * the server with async ones.
 *
 * Delivery: each subscriber sees events in seq order, each at most once (exactly once unless its queue
 * overflowed). A sync listener is called inline by `publish`, in subscription order. An async listener
 * has its own queue, drained one call at a time on later microtasks: `publish` only queues, so a slow async
 * subscriber never slows the run. A publish made while publishing (a listener whose work emits an event)
 * waits until the current event has reached every subscriber, so no one sees events out of order.
 *
 * Subscribing: without `fromSeq`, a subscriber receives the events delivered after it subscribed (from
 * inside a listener: from the next event on). With `fromSeq`, it first receives every journaled event
 * with seq above `fromSeq`, read from the history when it subscribes, then the live ones, with neither
 * gap nor duplicate: each delivery is checked against the last seq that subscriber accepted, so an event
 * both read from the journal and published afterwards arrives once. A sync subscriber gets its catch-up
 * inline, before `subscribe` returns; an async one through its queue. The catch-up is held in memory until
 * delivered and does not count against the queue bound. An unsubscribed subscriber receives nothing more
 * (an async listener call in progress runs to its end).
 *
 * Overflow policy (async only): a queue holds at most `maxQueue` live events. A publish that finds it full
 * drops everything waiting, the new event included, and queues one `OverflowNotice` with the dropped seq
 * range in their place (a notice still waiting is widened instead). The subscriber recovers the range from
 * the journal (`readSince(droppedFromSeq - 1)`, kept up to `droppedToSeq`) and carries on with the live
 * events after the notice: bounded memory for the run, and never a silent gap for a client.
 *
 * Failure policy: a listener that throws (sync) or rejects (async) is isolated. The error is caught, the
 * subscriber stays subscribed and keeps receiving events, and `onWarning` hears of its first failure only.
 *
 * Closing: `close()` refuses further publishes and subscriptions, then resolves once every async subscriber
 * still subscribed has delivered its queue (an async listener that never settles keeps it pending).
 *
 * Misuse throws: publishing after `close` or an event whose seq is not above the last published one,
 * `fromSeq` without a history, and a history that lacks events already delivered (that would be a gap).
 */
export function createEventBus(options: EventBusOptions = {}): EventBus {
  const history = historyReader(options.history);
  const warn = safeWarning(options.onWarning);
  const maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
  checkQueueBound(maxQueue);
  const loop = createDeliveryLoop();
  let closed = false;
  let named = 0;

  const requireOpen = (): void => {
    if (closed) throw new JournalError("closed", "the event bus is closed");
  };
  const readHistory = (afterSeq: number): readonly JournaledEvent[] => {
    if (history === undefined) throw new Error("this event bus has no history to read from");
    return history(afterSeq);
  };

  return {
    publish(event) {
      requireOpen();
      loop.publish(event);
    },
    subscribe(
      listener: SyncListener | AsyncListener,
      subscribeOptions: SyncSubscribeOptions | AsyncSubscribeOptions = {},
    ): Subscription {
      requireOpen();
      const name = subscribeOptions.name ?? `subscriber ${++named}`;
      const { fromSeq } = subscribeOptions;
      const subscriber = attach(loop, listener, subscribeOptions, {
        cursor: fromSeq ?? loop.delivered,
        backlog: fromSeq === undefined ? [] : catchUp(readHistory, fromSeq, loop.delivered),
        maxQueue: subscribeOptions.mode === "async" ? (subscribeOptions.maxQueue ?? maxQueue) : maxQueue,
        report: createSubscriberReport(name, warn),
      });
      return { name, unsubscribe: () => loop.remove(subscriber) };
    },
    readSince: readHistory,
    async close() {
      closed = true;
      await loop.idle();
    },
  };
}

/** The journaled events after `fromSeq`, checked to leave no gap before what the bus already delivered. */
function catchUp(read: ReadHistory, fromSeq: number, delivered: number): readonly JournaledEvent[] {
  if (!Number.isSafeInteger(fromSeq) || fromSeq < 0) throw new RangeError(`invalid fromSeq ${fromSeq}`);
  const events = read(fromSeq);
  const reached = Math.max(fromSeq, events.at(-1)?.seq ?? 0);
  if (reached < delivered) {
    throw new Error(
      `catch-up from seq ${fromSeq} read up to seq ${reached}, but seq ${delivered} was already ` +
        "delivered: the history must hold every event before it is published",
    );
  }
  return events;
}

interface AttachInit {
  readonly cursor: number;
  readonly backlog: readonly JournaledEvent[];
  readonly maxQueue: number;
  readonly report: SubscriberReport;
}

/**
 * Creates the subscriber and adds it to the loop. A sync subscriber's catch-up runs inside the loop, so
 * an event published by one of its listener calls waits until the catch-up is done.
 */
function attach(
  loop: DeliveryLoop,
  listener: SyncListener | AsyncListener,
  options: SyncSubscribeOptions | AsyncSubscribeOptions,
  init: AttachInit,
): Subscriber {
  if (options.mode === "async") {
    checkQueueBound(init.maxQueue);
    // The overloads of `subscribe` pair an async listener with `mode: "async"`.
    const subscriber = createAsyncSubscriber(listener as AsyncListener, init, init.report);
    loop.add(subscriber);
    return subscriber;
  }
  const subscriber = createSyncSubscriber(listener as SyncListener, init.cursor, init.report);
  loop.add(subscriber);
  loop.exclusive(() => {
    for (const event of init.backlog) subscriber.offer(event);
  });
  return subscriber;
}

/** The subscriber list and the one loop that hands events to it. */
interface DeliveryLoop {
  /** Seq of the event whose delivery started last (0 before the first). */
  readonly delivered: number;
  add(subscriber: Subscriber): void;
  remove(subscriber: Subscriber): void;
  publish(event: JournaledEvent): void;
  /** Runs `task` as part of the loop: events published meanwhile wait for it, then go out in order. */
  exclusive(task: () => void): void;
  idle(): Promise<void>;
}

function createDeliveryLoop(): DeliveryLoop {
  // Replaced, never mutated, so a delivery in progress walks the list as it was when it started.
  let subscribers: readonly Subscriber[] = [];
  const pending: JournaledEvent[] = [];
  let running = false;
  let published = 0;
  let delivered = 0;

  const exclusive = (task: () => void): void => {
    if (running) {
      task();
      return;
    }
    running = true;
    try {
      task();
      for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
        delivered = next.seq;
        for (const subscriber of subscribers) subscriber.offer(next);
      }
    } finally {
      running = false;
    }
  };

  return {
    get delivered() {
      return delivered;
    },
    add(subscriber) {
      subscribers = [...subscribers, subscriber];
    },
    remove(subscriber) {
      subscribers = subscribers.filter((each) => each !== subscriber);
      subscriber.stop();
    },
    publish(event) {
      if (event.seq <= published) {
        throw new Error(`event seq ${event.seq} published after seq ${published}: publish in journal order`);
      }
      published = event.seq;
      pending.push(event);
      exclusive(() => {});
    },
    exclusive,
    async idle() {
      await Promise.all(subscribers.map((subscriber) => subscriber.idle()));
    },
  };
}

function historyReader(history: string | ReadHistory | undefined): ReadHistory | undefined {
  if (typeof history !== "string") return history;
  return (afterSeq) => readSince(history, afterSeq).events;
}

function safeWarning(onWarning: ((message: string) => void) | undefined): (message: string) => void {
  return (message) => {
    try {
      onWarning?.(message);
    } catch {
      // Reporting must never break delivery (see `EventBusOptions.onWarning`).
    }
  };
}

function checkQueueBound(maxQueue: number): void {
  if (!Number.isSafeInteger(maxQueue) || maxQueue < 1) {
    throw new RangeError(`maxQueue must be a whole number of at least 1, got ${maxQueue}`);
  }
}
