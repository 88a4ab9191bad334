/**
 * `hankweave/checkpoints`: the checkpointer contract and its implementations (the git store the
 * runtime uses, and an in-memory one), for `ExecutionOptions.checkpointer` and for writing another.
 */

export { createGitCheckpointer } from "../checkpoint/git/index.ts";
export type { Checkpointer, CheckpointRecord, CommitInput, RestoreReport } from "../checkpoint/index.ts";
export { createMemoryCheckpointer, createMemoryCheckpointStore } from "../checkpoint/memory/index.ts";
export {
  CHECKPOINT_TYPES,
  type CheckpointType,
  ROLLBACK_CHECKPOINT_TYPES,
  type RollbackCheckpointType,
  runBranch,
  undoesItsCodon,
} from "../events/checkpoints.ts";
