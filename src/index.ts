/**
 * hankweave as a library: load and validate hank files, plan them, and run them with the engine.
 * The test kit (scripted agent helpers, fake clock, fake providers) is `hankweave/testing`.
 */
export * from "./engine/index.ts";
export type * from "./harness/harness.ts";
export { createHarnessRegistry, type HarnessFactories } from "./harness/registry.ts";
export { createScriptedHarness } from "./harness/scripted/index.ts";
export {
  type HankEvent,
  initialRunState,
  type JournaledEvent,
  JournalWriter,
  loadRunState,
  type RunState,
  readAll,
  readTail,
  reduce,
} from "./journal/index.ts";
export * from "./plan/index.ts";
export { formatJsonPath, type ValidationIssue } from "./spec/issues.ts";
export { applyModelOverride, loadHankFile } from "./spec/load.ts";
export { type ResolvedModel, resolveModel } from "./spec/models/index.ts";
export * from "./spec/schema/index.ts";
export { type ValidationContext, type ValidationReport, validateHank } from "./spec/validate/index.ts";
