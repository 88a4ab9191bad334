/**
 * hankweave as a library: load and validate hank files, plan them, and run them with the engine.
 * The test kit (scripted agent helpers, fake clock, fake providers) is `hankweave/testing`.
 */
export * from "./engine/index.ts";
export { createHarnessRegistry, type HarnessFactories } from "./harness/registry.ts";
export type * from "./harness/harness.ts";
export { createScriptedHarness } from "./harness/scripted/index.ts";
export {
  type HankEvent,
  initialRunState,
  JournalWriter,
  type JournaledEvent,
  loadRunState,
  readAll,
  readTail,
  reduce,
  type RunState,
} from "./journal/index.ts";
export * from "./plan/index.ts";
export { formatJsonPath, type ValidationIssue } from "./spec/issues.ts";
export { applyModelOverride, loadHankFile } from "./spec/load.ts";
export { resolveModel, type ResolvedModel } from "./spec/models/index.ts";
export * from "./spec/schema/index.ts";
export { validateHank, type ValidationContext, type ValidationReport } from "./spec/validate/index.ts";
