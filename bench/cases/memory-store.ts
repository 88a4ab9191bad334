import { randomUUID } from "node:crypto";
import type { EventDraftOf, EventStore } from "../../src/engine/index.ts";
import type { DataOf, EventOf, JournaledType } from "../../src/journal/index.ts";
import { RECORD_VERSION } from "../../src/journal/index.ts";

/**
 * An event store that builds the same envelopes as the journal writer and keeps only a count: the
 * engine's cost with no I/O at all. `drafts` collects what was appended when asked to (templates).
 */
export interface MemoryStore extends EventStore {
  count(): number;
  readonly drafts: EventDraftOf[] | null;
}

export function createMemoryStore(keepDrafts = false): MemoryStore {
  let seq = 0;
  const drafts: EventDraftOf[] | null = keepDrafts ? [] : null;
  const envelope = <T extends JournaledType>(draft: { readonly type: T; readonly data: DataOf<T> }) => {
    drafts?.push(draft as EventDraftOf);
    seq++;
    return {
      v: RECORD_VERSION,
      id: randomUUID(),
      seq,
      timestamp: new Date().toISOString(),
      type: draft.type,
      data: draft.data,
    } as EventOf<T>;
  };
  return {
    append: envelope,
    appendAll: (list) => list.map((draft) => envelope(draft) as EventOf<JournaledType>),
    count: () => seq,
    drafts,
  };
}
