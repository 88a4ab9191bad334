export { compileGlobs, type GlobSet } from "../util/glob-set.ts";
export {
  CHECKPOINT_NOT_MADE_CODE,
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
export {
  createMemoryCheckpointer,
  createMemoryCheckpointStore,
  type MemoryCheckpointerOptions,
  type MemoryCheckpointStore,
} from "./memory/index.ts";
export { isMandatoryExcluded } from "./work-tree-paths.ts";
