export {
  CheckpointError,
  type CheckpointErrorCode,
  type CheckpointErrorDetails,
} from "./checkpoint-error.ts";
export type {
  Checkpointer,
  CheckpointRecord,
  CheckpointType,
  CommitInput,
  RestoreOptions,
  RestoreReport,
  RunStart,
} from "./checkpointer.ts";
export { isValidRunId, runBranch } from "./checkpointer.ts";
export { compileGlobs, type GlobSet } from "./glob-set.ts";
export { isMandatoryExcluded } from "./work-tree-paths.ts";
