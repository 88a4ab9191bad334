import type { EventOf, JournaledType } from "../events/events.ts";
import { type EnvelopeOptions, type EventDraft, envelopeOf } from "./envelope.ts";

/** An event store that envelopes and numbers events exactly as the journal does, and keeps none. */
export interface UnkeptEventStore {
  append<T extends JournaledType>(draft: EventDraft<T>): EventOf<T>;
  /** All or nothing: a refused draft (a connection event) numbers none of the batch. */
  appendAll(drafts: readonly EventDraft<JournaledType>[]): EventOf<JournaledType>[];
}

/**
 * For a run whose events only the live run state and synchronous listeners read, and that nothing
 * reads back (a transient `loop()`): keeping every record, as `MemoryEventStore` does for its
 * `readSince`, would cost a serialization per event and memory that grows with the run.
 */
export function createUnkeptEventStore(options: EnvelopeOptions = {}): UnkeptEventStore {
  let lastSeq = 0;
  return {
    append(draft) {
      const event = envelopeOf(draft, lastSeq + 1, options);
      lastSeq += 1;
      return event;
    },
    appendAll(drafts) {
      const events = drafts.map((draft, index) => envelopeOf(draft, lastSeq + 1 + index, options));
      lastSeq += events.length;
      return events;
    },
  };
}
