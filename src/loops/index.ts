/**
 * Loops: durable, operated loops over hanks. Definitions (`<id>.loop.toml`), the pinned contract, the
 * pure stop model and state table, admission, the store contract, and the coordinator that drives runs
 * through the runner. The embedded SQLite store and the daemon live in `daemon/`.
 */

export * from "../events/loop-run-states.ts";
export { type AdmitOutcome, type AdmitRequest, admitRun } from "./coordinator/admit-run.ts";
export { bodyFacts } from "./coordinator/body-facts.ts";
export { parkHint, refusalNow } from "./coordinator/command-effects.ts";
export { TAMPER_EVENT } from "./coordinator/contract-guard.ts";
export {
  type ClaimedLease,
  DEFAULT_LEASE_TTL_MS,
  type DriveEnd,
  type DriveOptions,
  driveRun,
  leaseTakenFrom,
} from "./coordinator/drive-run.ts";
export {
  type DriverDeps,
  type DriverNotice,
  deadOwnerOf,
  dispatchEffects,
  driverOwner,
  isOwnerDead,
} from "./coordinator/driver-context.ts";
export { DRIVER_ONLY_ENV, withoutSecret } from "./coordinator/loop-env.ts";
export { removePinned, type Tamper } from "./coordinator/pin-files.ts";
export { executionDirOf, workspaceOf } from "./coordinator/run-body.ts";
export { LOOP_SCHEMA_ID, loopJsonSchema } from "./definition/definition-json-schema.ts";
export { type LoopDefinitionInput, LoopDefinitionSchema } from "./definition/definition-schema.ts";
export { readLimitConfig } from "./definition/limit-config.ts";
export {
  type LoadedDefinition,
  type LoopDefinition,
  loadDefinition,
  parseDefinition,
} from "./definition/load-definition.ts";
export {
  ADMIT_REFUSAL_CODES,
  type AdmissionReport,
  type AdmissionWarning,
  type AdmitRefusalCode,
  admissionReport,
  CONDITIONS,
  FALLBACK_ADVICE,
} from "./model/admission.ts";
export { effectiveBudgets, type Meters } from "./model/budgets.ts";
export { type CatalogEntry, catalogEntries, successText } from "./model/catalog.ts";
export type { PinnedContract } from "./model/contract.ts";
export { END_KINDS, type EndKind, endLayersOf, type RunEndLayers } from "./model/end-layers.ts";
export {
  BUILTIN_CEILINGS,
  BUILTIN_DEFAULTS,
  LIMIT_KEYS,
  type LimitConfig,
  type LimitKey,
  resolveLimits,
  showCap,
} from "./model/limits.ts";
export { STATE_TABLE, transition } from "./model/state-table.ts";
export { type Decision, decide } from "./model/stop-model.ts";
export { parseSourceOutput, pollDueAt, type WatchItem } from "./model/watch.ts";
export { type LeaseClaim, LeaseLostError, type LoopStore, StaleStateError } from "./store/loop-store.ts";
export type * from "./store/store-records.ts";
export { COMMAND_TYPES } from "./store/store-records.ts";
