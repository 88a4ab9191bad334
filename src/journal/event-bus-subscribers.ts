import type { JournaledEvent } from "../events/events.ts";
import {
  type AsyncDelivery,
  DeliveryQueue,
  isOverflowNotice,
  type OverflowNotice,
} from "./event-bus-queue.ts";

/** Called inline by `publish`, in subscription order. */
export type SyncListener = (event: JournaledEvent) => void;
/** Called with one delivery at a time, in order; the next waits until the returned promise settles. */
export type AsyncListener = (delivery: AsyncDelivery) => void | Promise<void>;

/** What the bus holds for each subscriber. */
export interface Subscriber {
  /**
   * Delivers (sync) or queues (async) an event, unless the subscriber is stopped or the event's seq is not
   * above the last seq it accepted: that check is what keeps catch-up and live delivery free of duplicates.
   */
  offer(event: JournaledEvent): void;
  /** Stops delivery and drops what is queued; an async listener call in progress runs to its end. */
  stop(): void;
  /** Settles once nothing is queued and no listener call is in progress. Never rejects. */
  idle(): Promise<void>;
}

/** Reports a subscriber's trouble to the bus's warning callback, once per kind of trouble. */
export interface SubscriberReport {
  failed(delivery: AsyncDelivery, error: unknown): void;
  overflowed(notice: OverflowNotice, max: number): void;
}

export function createSubscriberReport(name: string, warn: (message: string) => void): SubscriberReport {
  let failedBefore = false;
  let overflowedBefore = false;
  return {
    failed(delivery, error) {
      if (failedBefore) return;
      failedBefore = true;
      const what = isOverflowNotice(delivery)
        ? `the overflow notice for events ${delivery.droppedFromSeq}..${delivery.droppedToSeq}`
        : `event ${delivery.seq} (${delivery.type})`;
      const reason = error instanceof Error ? error.message : String(error);
      warn(
        `event subscriber '${name}' failed on ${what}: ${reason}; it keeps receiving events, ` +
          "and its later failures are not reported",
      );
    },
    overflowed(notice, max) {
      if (overflowedBefore) return;
      overflowedBefore = true;
      warn(
        `event subscriber '${name}' fell more than ${max} events behind: events ` +
          `${notice.droppedFromSeq}..${notice.droppedToSeq} were dropped from its queue and replaced by an ` +
          "overflow notice (they stay in the journal); its later overflows are not reported",
      );
    },
  };
}

/** A sync subscriber that has accepted every event up to `cursor`. */
export function createSyncSubscriber(
  listener: SyncListener,
  cursor: number,
  report: SubscriberReport,
): Subscriber {
  let active = true;
  let accepted = cursor;
  return {
    offer(event) {
      if (!active || event.seq <= accepted) return;
      accepted = event.seq;
      try {
        const result: unknown = listener(event);
        // A sync listener that returns a promise anyway: its rejection is reported, never awaited.
        if (result instanceof Promise) result.catch((error: unknown) => report.failed(event, error));
      } catch (error) {
        report.failed(event, error);
      }
    },
    stop() {
      active = false;
    },
    idle: () => Promise.resolve(),
  };
}

export interface AsyncSubscriberInit {
  /** The last seq accepted before `backlog` (the `fromSeq` asked for, or the last event delivered). */
  readonly cursor: number;
  /** Journaled events to deliver before any live event, oldest first, all with seq above `cursor`. */
  readonly backlog: readonly JournaledEvent[];
  readonly maxQueue: number;
}

/**
 * An async subscriber: a `DeliveryQueue` drained by one loop that awaits each listener call before the
 * next. The loop starts on a later microtask, so the listener never runs inside `publish` or `subscribe`.
 */
export function createAsyncSubscriber(
  listener: AsyncListener,
  init: AsyncSubscriberInit,
  report: SubscriberReport,
): Subscriber {
  const queue = new DeliveryQueue(init.backlog, init.maxQueue);
  let active = true;
  let accepted = init.backlog.at(-1)?.seq ?? init.cursor;
  let draining: Promise<void> | null = null;

  const deliver = async (delivery: AsyncDelivery): Promise<void> => {
    try {
      await listener(delivery);
    } catch (error) {
      report.failed(delivery, error);
    }
  };
  // Clears `draining` in the same synchronous step that finds the queue empty, so an event queued after
  // that step always starts a new loop.
  const drain = async (): Promise<void> => {
    await Promise.resolve();
    for (let next = queue.take(); next !== undefined && active; next = queue.take()) await deliver(next);
    draining = null;
  };
  const wake = (): void => {
    if (draining === null && queue.size > 0) draining = drain();
  };

  wake();
  return {
    offer(event) {
      if (!active || event.seq <= accepted) return;
      accepted = event.seq;
      const notice = queue.push(event);
      if (notice !== null) report.overflowed(notice, init.maxQueue);
      wake();
    },
    stop() {
      active = false;
      queue.clear();
    },
    async idle() {
      while (draining !== null) await draining;
    },
  };
}
