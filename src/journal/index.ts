/**
 * The journal: one event union (journal format, wire format, reducer input), the append-only JSONL
 * journal, the pure reducer that rebuilds run state from it, and the `state.json` snapshot.
 */
/** One realistic payload per event type, for tests and docs (a candidate for `src/testing/`). */

export { SAMPLE_DATA, sampleEvent, sampleJournaled } from "./event-samples.ts";
export type {
  ConnectionEvent,
  ConnectionType,
  DataOf,
  EventCategory,
  EventOf,
  EventType,
  HankEvent,
  JournaledEvent,
  JournaledType,
} from "./events.ts";
export {
  category,
  EVENT_TYPES,
  HankEventSchema,
  isEventType,
  isJournaled,
  JournaledEventSchema,
  RECORD_VERSION,
} from "./events.ts";
export type { JournalErrorCode } from "./journal-error.ts";
export { JournalError } from "./journal-error.ts";
export type { ReadOptions, ReadResult, ReadSinceResult, ScanSummary } from "./journal-reader.ts";
export { forEachEvent, readAll, readSince, readTail } from "./journal-reader.ts";
export type { EventDraft, JournalOpening, JournalWriterOptions } from "./journal-writer.ts";
export { JournalWriter } from "./journal-writer.ts";
export type { LoadedRunState, LoadRunStateOptions } from "./load-run-state.ts";
export { journalPathIn, loadRunState } from "./load-run-state.ts";
export type {
  ActiveCodonStatus,
  BudgetCurrency,
  BudgetExceeded,
  CodonEndReasons,
  CodonStatus,
  EndReason,
  ExitStatus,
  FailureReason,
  FileNode,
  LoopTerminationReason,
  TokenUsage,
} from "./payloads-common.ts";
export { CODON_STATUSES, isTerminalCodonStatus } from "./payloads-common.ts";
export type { CheckpointType, TransitionType } from "./payloads-server-state.ts";
export { TRANSITION_TYPES } from "./payloads-server-state.ts";
export { reduce } from "./reduce.ts";
export type {
  CodonRecord,
  CodonTokens,
  LoopRecord,
  RunRecord,
  RunState,
  RunStatus,
  RunTotals,
} from "./run-state.ts";
export { codonIndex, findCodon, initialRunState, RunStateSchema } from "./run-state.ts";
export { RunStateStore } from "./run-state-store.ts";
export type { SnapshotContent, SnapshotRead, StateSnapshot } from "./state-snapshot.ts";
export {
  readSnapshot,
  SNAPSHOT_BACKUP_FILE,
  SNAPSHOT_FILE,
  StateSnapshotSchema,
  writeSnapshot,
} from "./state-snapshot.ts";
