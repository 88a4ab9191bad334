import type { EventBus, JournaledEvent, Subscription } from "../journal/index.ts";

/** What the fan-out hands each event to: a client's feed (`ClientFeed`). */
export interface LiveFeed {
  offer(event: JournaledEvent): void;
}

/**
 * Every client's live events through one subscription on the host's bus: each published event is
 * handed to the clients' feeds in turn, in journal order, so the bus does its per-subscriber work
 * (cursor, isolation, catch-up) once per event rather than once per client.
 *
 * The guarantees of a subscription hold for each feed: `add` catches the feed up from the journal
 * (every event above `afterSeq`, read from the history) before it returns, then live events follow;
 * the feed skips what it has already taken (`ClientFeed` keeps a cursor), so an event both read and
 * published reaches it once. A feed that throws is skipped for that event only: the other clients
 * still get it, and the bus never hears of it.
 */
export class LiveFanOut {
  readonly #bus: EventBus;
  readonly #feeds = new Set<LiveFeed>();
  #subscription: Subscription | undefined;

  constructor(bus: EventBus) {
    this.#bus = bus;
  }

  /**
   * Starts `feed`'s live events. With `afterSeq` (the journal held that many events when the client
   * shook hands), every journaled event above it is offered first, inline.
   */
  add(feed: LiveFeed, afterSeq: number | undefined): void {
    this.#subscription ??= this.#bus.subscribe((event) => this.#publish(event), { name: "clients" });
    if (afterSeq !== undefined) for (const event of this.#bus.readSince(afterSeq)) offerTo(feed, event);
    this.#feeds.add(feed);
  }

  remove(feed: LiveFeed): void {
    this.#feeds.delete(feed);
  }

  /** Ends the subscription (the server is closing); feeds added later start it again. */
  stop(): void {
    this.#subscription?.unsubscribe();
    this.#subscription = undefined;
    this.#feeds.clear();
  }

  #publish(event: JournaledEvent): void {
    for (const feed of this.#feeds) offerTo(feed, event);
  }
}

function offerTo(feed: LiveFeed, event: JournaledEvent): void {
  try {
    feed.offer(event);
  } catch {
    // One client's failure (its socket gone mid-write, say) must not cost the others this event; its
    // connection's own close handler removes it.
  }
}
