import { join } from "node:path";
import type { EventStore } from "../../engine/index.ts";
import { type JournaledEvent, JournalWriter, MemoryEventStore, readSince } from "../../journal/index.ts";
import { runEventStoreConformance } from "./run-event-store-conformance.ts";
import type { EventStoreTarget } from "./store-fixture.ts";

const journalIn = (dir: string): string => join(dir, "events.jsonl");

runEventStoreConformance("JournalWriter", {
  open: (dir) => {
    const writer: JournalWriter = JournalWriter.open(journalIn(dir), { validate: true });
    const store: EventStore = writer;
    return { store, readSince: (seq) => readSince(writer.path, seq).events, close: () => writer.close() };
  },
  reopens: true,
  journalFile: journalIn,
});

/** The in-memory store "reopens" by seeding a new store with what the closed one held under that dir. */
function memoryTarget(appendOnly: boolean): EventStoreTarget {
  const closedStores = new Map<string, readonly JournaledEvent[]>();
  return {
    open: (dir) => {
      const memory = new MemoryEventStore({ events: closedStores.get(dir) ?? [], validate: true });
      const store: EventStore = appendOnly ? { append: (draft) => memory.append(draft) } : memory;
      return {
        store,
        readSince: (seq) => memory.readSince(seq),
        close: () => {
          closedStores.set(dir, memory.readSince(0));
        },
      };
    },
    reopens: !appendOnly,
  };
}

runEventStoreConformance("MemoryEventStore", memoryTarget(false));
runEventStoreConformance("MemoryEventStore without appendAll", memoryTarget(true));
