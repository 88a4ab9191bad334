/**
 * Hank refs: the strict path contract for files a hank names (prompt files, system prompt files,
 * sentinel config files, rig copy sources) and the pure checks for paths inside the agent workspace.
 */
export { checkRef, type RefOptions, refEscapePoint, refSpellingProblem } from "./ref-check.ts";
export { type CopySourceOptions, checkCopySource } from "./ref-copy.ts";
export { quotePath, REF_HINTS, type RefCheck, type RefExpect, type RefRule } from "./ref-rules.ts";
export {
  checkWorkspaceGlob,
  checkWorkspaceTarget,
  DATA_SOURCE_DIR,
  WORKSPACE_PATH_HINTS,
  type WorkspacePathCheck,
  type WorkspacePathRule,
} from "./ref-workspace.ts";
