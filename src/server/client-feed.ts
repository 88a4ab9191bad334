import type { JournaledEvent } from "../journal/index.ts";

/** What a feed needs: how to send one event, and the journal to read what it could not hold. */
export interface FeedTarget {
  /** Sends one event; a promise means the socket is full: it settles once it has drained. */
  send(event: JournaledEvent): Promise<void> | undefined;
  /** Journaled events after `afterSeq`, oldest first (every published event is already journaled). */
  readSince(afterSeq: number): readonly JournaledEvent[];
}

/**
 * A client's live events, each exactly once and in journal order, without ever slowing the run.
 *
 * While the socket keeps up (nearly always), an event is written as it is published: no queue, no
 * promise. Once the socket is full, later events wait in a queue of at most `maxQueue`; past that, the
 * queue is dropped and the client is caught up from the journal, which holds every event, once the
 * socket drains. Memory per slow client stays bounded and the run never waits for it.
 */
export class ClientFeed {
  readonly #target: FeedTarget;
  readonly #maxQueue: number;
  /** The seq of the last event handed to the socket. */
  #sent: number;
  /** Set while the socket is full or the feed catches up: live events wait. */
  #draining: Promise<void> | undefined;
  #queue: JournaledEvent[] = [];
  /** The queue overflowed: the events after `#sent` are read back from the journal. */
  #behind = false;
  #stopped = false;

  constructor(target: FeedTarget, maxQueue: number, afterSeq: number) {
    this.#target = target;
    this.#maxQueue = maxQueue;
    this.#sent = afterSeq;
  }

  /** A published event (a sync bus listener: it never throws into the run, never waits). */
  offer(event: JournaledEvent): void {
    if (this.#stopped || event.seq <= this.#sent) return;
    if (this.#draining === undefined) {
      this.#sent = event.seq;
      const full = this.#target.send(event);
      if (full !== undefined) this.#draining = this.#drain(full);
      return;
    }
    if (this.#behind) return;
    if (this.#queue.length < this.#maxQueue) this.#queue.push(event);
    else {
      this.#queue = [];
      this.#behind = true;
    }
  }

  stop(): void {
    this.#stopped = true;
    this.#queue = [];
  }

  /** Events wait for the socket to drain. */
  get draining(): boolean {
    return this.#draining !== undefined;
  }

  /** Settles once nothing waits to be handed to the socket. */
  async idle(): Promise<void> {
    while (this.#draining !== undefined) await this.#draining;
  }

  /** Waits for the socket, then sends what waited, from the queue or the journal, until caught up. */
  async #drain(full: Promise<void>): Promise<void> {
    await full;
    while (!this.#stopped) {
      const waiting = this.#behind ? this.#target.readSince(this.#sent) : this.#queue;
      this.#queue = [];
      this.#behind = false;
      if (waiting.length === 0) break;
      for (const event of waiting) {
        if (this.#stopped) break;
        if (event.seq <= this.#sent) continue;
        this.#sent = event.seq;
        const again = this.#target.send(event);
        if (again !== undefined) await again;
      }
    }
    this.#draining = undefined;
  }
}
