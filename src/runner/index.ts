/**
 * The runner: everything a real run needs, composed once (validation, the execution directory, the
 * lock, crash recovery, the resume point, workspace hooks, checkpoints, the journal and snapshots,
 * harnesses and their self-test, cancellation and run control). Every face calls it.
 */

export { archiveRestorer } from "./archive-restorer.ts";
export type { ExecutionOptions, ExecutionResult } from "./execution-options.ts";
export type { LoadedHank, LoadHankInput } from "./load-hank.ts";
export { loadValidatedHank } from "./load-hank.ts";
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
