/**
 * The execution plan: a pure, serializable description of which codon runs when. `buildPlan` flattens a
 * hank with loops at iteration 0; after each codon the driver asks `decideAfterCodon` and applies the
 * answer with `applyDecision`, which splices in the next iteration or ends the loop.
 */

export { runtimeIdCollisions } from "../hank/validate/runtime-id-collisions.ts";
export type { ParsedRuntimeId } from "../util/runtime-id.ts";
export { parseRuntimeId, runtimeIdOf } from "../util/runtime-id.ts";
export { addNewTopLevelItems, loopsWithChangedBody } from "./add-new-items.ts";
export { applyDecision } from "./apply-decision.ts";
export { buildPlan, iterationEntries } from "./build-plan.ts";
export type { FinishedIds } from "./cursor.ts";
export { findEntry, findPrevious, isPlanFinished, nextCodon, openLoops } from "./cursor.ts";
export type { AfterCodonDecision, FinishedCodon } from "./decide-after-codon.ts";
export { decideAfterCodon, loopEnds } from "./decide-after-codon.ts";
export { dropRestOfIteration } from "./drop-rest-of-iteration.ts";
export type { ExecutionPlan, LoopPlacement, LoopStatus, PlannedCodon } from "./execution-plan.ts";
export { PLAN_VERSION } from "./execution-plan.ts";
export type { HankLoopEndCause, LoopTerminationReason } from "./loop-end-cause.ts";
export { eventTerminationReason, LOOP_END_CAUSES, LOOP_TERMINATION_REASONS } from "./loop-end-cause.ts";
export { endLoop, loopStatus, reopenLoop } from "./loop-status.ts";
export { iterationIndexes, nextIteration } from "./next-iteration.ts";
export type { ParsedPlan } from "./parse-execution-plan.ts";
export { ExecutionPlanSchema, parseExecutionPlan } from "./parse-execution-plan.ts";
export { planSize } from "./plan-size.ts";
export { type LoopReport, loopReportOf, replayLoopReports } from "./replay-loop-reports.ts";
export { loopOf, resolveCodon, terminateOnOf, unresolvedEntries } from "./resolve-codon.ts";
export type { BudgetScope, CodonFinish, LoopCodonFinish, LoopStop, LoopStopRule } from "./stop-rules.ts";
export {
  carriesOn,
  LOOP_STOP_RULES,
  stopOnBudget,
  stopOnContext,
  stopOnFailure,
  stopOnIterationLimit,
} from "./stop-rules.ts";
