/**
 * The runner: everything a real run needs, composed once (validation, the execution directory, the
 * lock, crash recovery, the resume point, workspace hooks, checkpoints, the journal and snapshots,
 * harnesses and their self-test, cancellation and run control). Every face calls it.
 */

// The engine's vocabulary that faces use with the runner: listeners, commands, stop rules, rollback
// targets. Faces import these from here (or from events/), never from the engine (scripts/check-layers.mjs).
export type {
  CodonResult,
  EventListener,
  LoopStopPredicate,
  LoopStopVerdict,
  RollbackSuccess,
  RollbackTarget,
  RunCommand,
  RunControl,
} from "../engine/index.ts";
export { sessionModelOf } from "../engine/index.ts";
export { inspectLock, type LockInspection } from "../workspace/lock/index.ts";
export { DEFAULT_STALE_AFTER_MS } from "../workspace/lock/lock-record.ts";
export { archiveRestorer } from "./archive-restorer.ts";
export {
  type CheckpointListing,
  type ExecutionDoor,
  type LockedWork,
  openExecutionDoor,
} from "./execution-door.ts";
export type { ExecutionOptions, ExecutionResult } from "./execution-options.ts";
export type { LoadedHank, LoadHankInput } from "./load-hank.ts";
export { loadValidatedHank } from "./load-hank.ts";
export { reopenUnfinishedLoops } from "./recovery/resume-point.ts";
export type { AbandonOutcome, RollbackOutcome, RollbackRequest } from "./roll-back.ts";
export {
  createRunChannels,
  DRAIN_TIMEOUT_MS,
  drainBus,
  type RunChannels,
  WarningRelay,
} from "./run-channels.ts";
export type { ExecutionHandle } from "./run-execution.ts";
export { checkGit, runExecution, startExecution } from "./run-execution.ts";
export type { RunSinkInput, WorkspaceRun } from "./run-workspace.ts";
export { openRunSink, runWorkspace } from "./run-workspace.ts";
