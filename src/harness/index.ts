/**
 * Harnesses as plug-ins: the descriptor contract, the built-in descriptors, the registry a run uses
 * and the checks made before one starts. The session contract itself is `harness.ts`; each harness's
 * own API is its folder's index.ts.
 */
export { harnessProblem, harnessPromptProblems } from "./availability.ts";
export { BUILTIN_HARNESSES } from "./builtin-harnesses.ts";
export type {
  AgentEnv,
  HarnessContext,
  HarnessDescriptor,
  HarnessFactory,
  HarnessMissing,
  SelfTestContext,
} from "./descriptor.ts";
export { descriptorForModel, descriptorOfKind } from "./find-descriptor.ts";
export type * from "./harness.ts";
export { createHarnessRegistry, type HarnessFactories, harnessFactories } from "./registry.ts";
export { type SelfTestFailure, selfTestModels } from "./self-test-models.ts";
