export {
  type CheckpointClock,
  createGitCheckpointer,
  type GitCheckpointerOptions,
} from "./git-checkpointer.ts";
export { DEFAULT_IDENTITY, type GitIdentity } from "./git-environment.ts";
export { recoverRunPacks } from "./recover-run-packs.ts";
