import { describe, it } from "node:test";
import { FILE_CASES, REOPEN_CASES } from "./durability-cases.ts";
import { COMMON_CASES, type StoreCase } from "./store-cases.ts";
import { type EventStoreTarget, withStore } from "./store-fixture.ts";

/** Every case, in the order they run. */
export const EVENT_STORE_CASES: readonly StoreCase[] = [...COMMON_CASES, ...REOPEN_CASES, ...FILE_CASES];

/** Why a case does not apply to a target (it is skipped), or null when it does. */
function notApplicable(target: EventStoreTarget, storeCase: StoreCase): string | null {
  if (REOPEN_CASES.includes(storeCase) && target.reopens !== true) return "the store does not reopen";
  if (FILE_CASES.includes(storeCase) && target.journalFile === undefined) return "not a JSONL file store";
  return null;
}

/**
 * Registers (with node:test) the behaviour every `EventStore` must show to stand behind the event sink:
 * `seq` strictly increasing by one from the store's last record, the envelope `JournalWriter` writes,
 * `appendAll` in order and all or nothing, connection events refused, `readSince` exact from anywhere,
 * records immutable once appended, and, where they apply, seq continuing after a reopen and a torn last
 * line tolerated. Each case gets a fresh temporary directory. A case that does not apply (no `appendAll`,
 * no reopen, not a file) is skipped; one listed in `target.limitations` runs as `todo`.
 *
 * ```ts
 * runEventStoreConformance("journal file", {
 *   open: (dir) => {
 *     const writer = JournalWriter.open(join(dir, "events.jsonl"));
 *     return { store: writer, readSince: (seq) => readSince(writer.path, seq).events, close: () => writer.close() };
 *   },
 *   reopens: true,
 *   journalFile: (dir) => join(dir, "events.jsonl"),
 * });
 * ```
 */
export function runEventStoreConformance(name: string, target: EventStoreTarget): void {
  describe(`${name}: event store conformance`, () => {
    for (const storeCase of EVENT_STORE_CASES) {
      const skip = notApplicable(target, storeCase);
      const limitation = target.limitations?.[storeCase.id];
      const options = skip !== null ? { skip } : limitation !== undefined ? { todo: limitation } : {};
      it(storeCase.title, options, (t) =>
        withStore(target, (fixture) => storeCase.run(fixture, (reason) => t.skip(reason))),
      );
    }
  });
}
