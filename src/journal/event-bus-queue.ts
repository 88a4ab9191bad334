import type { JournaledEvent } from "../events/events.ts";

/**
 * What an async subscriber receives in place of the events its full queue dropped. Every seq from
 * `droppedFromSeq` to `droppedToSeq` (inclusive) was dropped; the next delivery is the first event after
 * `droppedToSeq`. Those events are in the journal: `bus.readSince(droppedFromSeq - 1)` filtered to
 * `seq <= droppedToSeq` gives exactly the missing ones.
 */
export interface OverflowNotice {
  readonly kind: "overflow";
  readonly droppedFromSeq: number;
  readonly droppedToSeq: number;
}

/** One delivery to an async subscriber: an event, or the notice that stands for dropped events. */
export type AsyncDelivery = JournaledEvent | OverflowNotice;

export function isOverflowNotice(delivery: AsyncDelivery): delivery is OverflowNotice {
  return "kind" in delivery && delivery.kind === "overflow";
}

/** Entries taken from the head of the live queue before the array is compacted. */
const COMPACT_AFTER = 1024;

/**
 * The queue of one async subscriber: first the catch-up backlog (the journaled events read when it
 * subscribed, already in memory, so not bounded), then the live events published since, at most `max` of
 * them waiting.
 *
 * Overflow policy: a live event that finds `max` entries waiting is dropped together with all of them, and
 * one `OverflowNotice` covering the first dropped seq to its own takes their place. An overflow while a
 * notice is still waiting widens that notice, so there is never more than one, always first in line. The
 * queue never holds more than `max` live entries, the subscriber learns exactly where the gap is, and the
 * events after the notice are live again.
 */
export class DeliveryQueue {
  readonly #max: number;
  #backlog: readonly JournaledEvent[];
  #backlogAt = 0;
  #live: AsyncDelivery[] = [];
  #head = 0;

  constructor(backlog: readonly JournaledEvent[], max: number) {
    if (!Number.isSafeInteger(max) || max < 1)
      throw new RangeError(`queue size must be at least 1, got ${max}`);
    this.#backlog = backlog;
    this.#max = max;
  }

  /** Entries waiting, backlog included. */
  get size(): number {
    return this.#backlog.length - this.#backlogAt + this.#live.length - this.#head;
  }

  /** Queues a live event; returns the notice when this push overflowed the queue, otherwise null. */
  push(event: JournaledEvent): OverflowNotice | null {
    if (this.#live.length - this.#head < this.#max) {
      this.#live.push(event);
      return null;
    }
    const first = this.#live[this.#head];
    const from = first === undefined ? event.seq : isOverflowNotice(first) ? first.droppedFromSeq : first.seq;
    const notice: OverflowNotice = { kind: "overflow", droppedFromSeq: from, droppedToSeq: event.seq };
    this.#live = [notice];
    this.#head = 0;
    return notice;
  }

  /** The next delivery in order, or undefined when nothing waits. */
  take(): AsyncDelivery | undefined {
    if (this.#backlogAt < this.#backlog.length) {
      const event = this.#backlog[this.#backlogAt++];
      if (this.#backlogAt === this.#backlog.length) {
        this.#backlog = [];
        this.#backlogAt = 0;
      }
      return event;
    }
    if (this.#head === this.#live.length) return undefined;
    const item = this.#live[this.#head++];
    if (this.#head === this.#live.length) {
      this.#live = [];
      this.#head = 0;
    } else if (this.#head >= COMPACT_AFTER && this.#head * 2 >= this.#live.length) {
      this.#live = this.#live.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** Drops everything waiting (an unsubscribed subscriber). */
  clear(): void {
    this.#backlog = [];
    this.#backlogAt = 0;
    this.#live = [];
    this.#head = 0;
  }
}
