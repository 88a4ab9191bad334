/**
 * Rollback (reference 1.14, 1.18): resolve a target on the execution's current line of checkpoints,
 * restore the work tree and archived files, start the continuation run's line, journal `rollback.*`
 * and save the rewritten plan. The checkpointer, the archive and the journal come in as arguments.
 */

export { type AbandonResult, abandonRollback } from "./abandon-rollback.ts";
export { type ArchiveSelectionInput, archivesToRestore } from "./archive-selection.ts";
export { type CheckpointListData, checkpointListData, checkpointLists } from "./checkpoint-list.ts";
export {
  checkpointThread,
  currentRunOf,
  isFinishedCodon,
  type RestartPoint,
  restartPoint,
} from "./checkpoint-thread.ts";
export {
  createJournalLineReader,
  type JournalLine,
  type JournalLineReader,
  journalLineOf,
  LINE_BASE_TRANSITION,
  type LineReport,
  type LineStep,
  readJournalLine,
} from "./journal-line.ts";
export {
  AFTERMATH_TAIL_EVENTS,
  continuationIds,
  interruptedRollbackMessage,
  type RollbackAftermath,
  rollbackAftermath,
} from "./pending-continuation.ts";
export { checkpointGlobsOf, codonsUndone, planAfterRollback } from "./plan-after-rollback.ts";
export {
  describeCheckpoint,
  type ResolvedTarget,
  resolveRollbackTarget,
  type TargetContext,
} from "./resolve-target.ts";
export { rollbackExecution } from "./rollback-execution.ts";
export {
  type ArchivedEntry,
  type ArchiveRestoreData,
  type ArchiveRestorer,
  isRollbackCheckpointType,
  ROLLBACK_ABANDONED_CODE,
  ROLLBACK_CHECKPOINT_TYPES,
  type RollbackCheckpointType,
  type RollbackDeps,
  type RollbackErrorCode,
  type RollbackFailure,
  type RollbackInput,
  type RollbackResult,
  type RollbackSuccess,
  type RollbackTarget,
} from "./rollback-types.ts";
