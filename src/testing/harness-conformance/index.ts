/**
 * The harness conformance suite: the same scenarios for every harness, run through the engine against
 * fake model servers (or, for the scripted agent, its directives). See `runHarnessConformance`.
 */
export type { ConformanceSetup, ConformanceTarget, ScenarioName } from "./conformance-types.ts";
export { SCENARIO_NAMES } from "./conformance-types.ts";
export { planReply } from "./plan-reply.ts";
export { planScript } from "./plan-script.ts";
export type { ProbedHarness, SessionTiming } from "./probe-harness.ts";
export { probeHarness } from "./probe-harness.ts";
export type { ConformanceHankInput, ConformanceRun } from "./run-conformance-hank.ts";
export { runConformanceHank } from "./run-conformance-hank.ts";
export { CONFORMANCE_SCENARIOS, runHarnessConformance } from "./run-harness-conformance.ts";
export type { Scenario, ScenarioContext } from "./scenario-kit.ts";
export { createSessionDirector, type SessionDirector } from "./session-director.ts";
export type { ConformanceFault, SessionPlan, ToolStep } from "./session-plan.ts";
export { CONFORMANCE_FAULTS, FAULT_CLASSES, FAULT_TEXTS } from "./session-plan.ts";
