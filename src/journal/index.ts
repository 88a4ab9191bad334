/**
 * The journal: the append-only JSONL journal of the event union (`src/events/`, re-exported here for
 * its readers), the pure reducer that rebuilds run state from it, and the `state.json` snapshot.
 */
export { SAMPLE_DATA, sampleEvent, sampleJournaled } from "../events/event-samples.ts";
export type {
  ActiveCodonStatus,
  BudgetCurrency,
  BudgetExceeded,
  CheckpointType,
  CodonEndReasons,
  CodonStatus,
  ConnectionEvent,
  ConnectionType,
  DataOf,
  EndReason,
  EventCategory,
  EventOf,
  EventType,
  ExitStatus,
  FailureReason,
  FileNode,
  HankEvent,
  JournaledEvent,
  JournaledType,
  LoopTerminationReason,
  TokenUsage,
  TransitionType,
} from "../events/index.ts";
export {
  CODON_STATUSES,
  category,
  EVENT_TYPES,
  HankEventSchema,
  isEventType,
  isJournaled,
  isTerminalCodonStatus,
  JournaledEventSchema,
  RECORD_VERSION,
  TRANSITION_TYPES,
} from "../events/index.ts";
export type { CodonResultText } from "../events/payloads-common.ts";
export { startsFresh } from "./apply-event.ts";
export { finishedCodonIds, isCodonFinished, wasCutShort } from "./codon-finished.ts";
export type {
  AsyncSubscribeOptions,
  EventBus,
  EventBusOptions,
  ReadHistory,
  Subscription,
  SyncSubscribeOptions,
} from "./event-bus.ts";
export { createEventBus, DEFAULT_MAX_QUEUE } from "./event-bus.ts";
export type { AsyncDelivery, OverflowNotice } from "./event-bus-queue.ts";
export { isOverflowNotice } from "./event-bus-queue.ts";
export type { AsyncListener, SyncListener } from "./event-bus-subscribers.ts";
export type { JournalErrorCode } from "./journal-error.ts";
export { JournalError } from "./journal-error.ts";
export type { ReadOptions, ReadResult, ReadSinceResult, ScanSummary } from "./journal-reader.ts";
export { forEachEvent, readAll, readSince, readTail } from "./journal-reader.ts";
export { type JournalReplaced, journalRestorePath } from "./journal-restore.ts";
export type { EventDraft, JournalOpening, JournalWriterOptions } from "./journal-writer.ts";
export { JournalWriter } from "./journal-writer.ts";
export type { LoadedRunState, LoadRunStateOptions } from "./load-run-state.ts";
export { journalPathIn, loadRunState } from "./load-run-state.ts";
export type { MemoryEventStoreOptions } from "./memory-event-store.ts";
export { MemoryEventStore } from "./memory-event-store.ts";
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
export { createSecretMask, MASKED, type SecretMask } from "./secret-mask.ts";
export type { SnapshotContent, SnapshotRead, StateSnapshot } from "./state-snapshot.ts";
export {
  readSnapshot,
  SNAPSHOT_BACKUP_FILE,
  SNAPSHOT_FILE,
  StateSnapshotSchema,
  writeSnapshot,
} from "./state-snapshot.ts";
export { createUnkeptEventStore, type UnkeptEventStore } from "./unkept-event-store.ts";
export { writtenJsonOf } from "./written-json.ts";
