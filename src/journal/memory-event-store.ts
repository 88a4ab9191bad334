import type { EventOf, JournaledEvent, JournaledType } from "../events/events.ts";
import { type EnvelopeOptions, type EventDraft, envelopeOf } from "./envelope.ts";
import { rememberWrittenJson } from "./written-json.ts";

export interface MemoryEventStoreOptions extends EnvelopeOptions {
  /** Events of an earlier store, oldest first, seq strictly increasing: `seq` continues after the last. */
  readonly events?: readonly JournaledEvent[];
}

/**
 * An event store in memory, for tests and library users who keep no journal file. It behaves as
 * `JournalWriter` does: the same envelope (`v`, `id`, `seq`, `timestamp`, kept when the draft gives them),
 * `seq` going on from the last stored record, connection events refused, and `appendAll` all or nothing.
 *
 * Each record is kept as its JSON line, exactly as the file would hold it, so a caller that changes an
 * event or its data after appending changes nothing stored, and `readSince` returns fresh objects.
 */
export class MemoryEventStore {
  readonly #options: MemoryEventStoreOptions;
  readonly #lines: string[] = [];
  readonly #seqs: number[] = [];

  constructor(options: MemoryEventStoreOptions = {}) {
    this.#options = options;
    for (const event of options.events ?? []) {
      if (event.seq <= this.lastSeq) {
        throw new RangeError(`seed event seq ${event.seq} does not follow seq ${this.lastSeq}`);
      }
      this.#keep([event]);
    }
  }

  /** The `seq` of the last record (0 when empty). */
  get lastSeq(): number {
    return this.#seqs.at(-1) ?? 0;
  }

  /** Appends one event and returns it with its envelope. */
  append<T extends JournaledType>(draft: EventDraft<T>): EventOf<T> {
    const event = envelopeOf(draft, this.lastSeq + 1, this.#options);
    this.#keep([event]);
    return event;
  }

  /** Appends several events as one batch: if one draft is refused, none is stored. */
  appendAll(drafts: readonly EventDraft<JournaledType>[]): EventOf<JournaledType>[] {
    const first = this.lastSeq + 1;
    const events = drafts.map((draft, index) => envelopeOf(draft, first + index, this.#options));
    this.#keep(events);
    return events;
  }

  /** The records with seq above `afterSeq`, oldest first (a binary search, then one parse per record). */
  readSince(afterSeq: number): JournaledEvent[] {
    let low = 0;
    let high = this.#seqs.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.#seqs[middle] ?? 0) > afterSeq) high = middle;
      else low = middle + 1;
    }
    return this.#lines.slice(low).map((line) => JSON.parse(line) as JournaledEvent);
  }

  /**
   * Serializes every event before storing any, so a batch that cannot be written leaves no trace; each
   * event's JSON is kept for those who send the published event on (`writtenJsonOf`).
   */
  #keep(events: readonly JournaledEvent[]): void {
    const lines = events.map((event) => {
      const line = JSON.stringify(event);
      rememberWrittenJson(event, line);
      return line;
    });
    for (const line of lines) this.#lines.push(line);
    for (const event of events) this.#seqs.push(event.seq);
  }
}
