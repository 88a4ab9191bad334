/**
 * Execution directories: where a start runs and what it runs on. The composition root goes:
 * `hashDataSource` and `hankHashOf` → `listExecutions` / `inspectExecutionTarget` → `chooseExecution`
 * (pure) → on `confirm`, ask and `settleConfirmation` → `prepareExecution` → `acquireLock` (../lock).
 */
export {
  type ChooseExecutionInput,
  CONFIRM_TIMEOUT_MS,
  chooseExecution,
  type ExecutionChoice,
  type ExecutionConfirm,
  type ExecutionIntent,
  type ExecutionPlan,
  type ExecutionRefusal,
  type ExistingExecution,
  mostRecentMatch,
  type RefusalCode,
  settleConfirmation,
  type TargetFacts,
} from "./choose-execution.ts";
export {
  type DataHash,
  type DataHashOptions,
  type DataHashResult,
  DEFAULT_DATA_HASH_TIME_LIMIT_MS,
  hashDataSource,
} from "./data-hash.ts";
export type { DataHashMethod } from "./data-signature.ts";
export {
  DEFAULT_EXECUTION_BASE_DIR_NAME,
  EXECUTION_BASE_DIR_ENV,
  executionBaseDir,
} from "./execution-base-dir.ts";
export {
  buildExecutionMeta,
  currentHost,
  EXECUTION_META_VERSION,
  type ExecutionHost,
  type ExecutionMeta,
  ExecutionMetaSchema,
  type MetaRead,
  readExecutionMeta,
  writeExecutionMeta,
} from "./execution-meta.ts";
export { newExecutionDirName, randomSuffix, stateBackupName } from "./execution-names.ts";
export { nestingProblem } from "./execution-nesting.ts";
export { hankHashOf } from "./hank-hash.ts";
export type { LinkType } from "./link-data-source.ts";
export { type PreparedExecution, type PrepareExecutionInput, prepareExecution } from "./prepare-execution.ts";
export {
  canonicalPath,
  type ExecutionSurvey,
  inspectExecutionTarget,
  listExecutions,
  type TargetInspection,
} from "./survey-executions.ts";
