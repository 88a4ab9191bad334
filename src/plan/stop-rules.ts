import type { TerminateOn } from "../hank/schema/index.ts";
import type { StopRule } from "../util/stop-rule.ts";
import type { LoopPlacement } from "./execution-plan.ts";
import type { HankLoopEndCause } from "./loop-end-cause.ts";

/** Which budget ran out: the codon's own cap, its loop's budget, or the hank's. */
export type BudgetScope = "codon" | "loop" | "hank";

/**
 * How a planned codon finished, as the engine classified it once budgets and `onFailure` were applied.
 * - `completed`: success (an `exhaustWithPrompt` codon that used up its context is a success too).
 * - `skipped`: skipped on request; it counts as done and a loop carries on.
 * - `context-exceeded`: the provider reported context exhaustion.
 * - `budget-exceeded`: a budget ran out and the codon completed gracefully (`onExceeded: complete`);
 *   under `onExceeded: fail` the engine reports `failed` or `failed-ignored` instead.
 * - `failed-ignored`: failed under `onFailure: ignore`; `budget` when the failure is a budget that ran
 *   out under `onExceeded: fail` (a loop or hank budget still ends the loop: ignoring the failure does
 *   not give the money back).
 * - `failed`: failed for good under `abort` (or `retry` with attempts spent): this run stops.
 * - `not-started`: the run's ceiling was spent before the codon could start; it completed without
 *   starting (`onExceeded: complete`), and a later start with a higher ceiling runs it.
 */
export type CodonFinish =
  | { readonly kind: "completed" }
  | { readonly kind: "skipped" }
  | { readonly kind: "context-exceeded" }
  | { readonly kind: "budget-exceeded"; readonly scope: BudgetScope }
  | { readonly kind: "failed-ignored"; readonly budget?: BudgetScope }
  | { readonly kind: "failed" }
  | { readonly kind: "not-started" };

/** What a stop rule sees: a codon of a loop that just finished, and the loop's stop condition. */
export interface LoopCodonFinish {
  readonly placement: LoopPlacement;
  readonly finish: CodonFinish;
  readonly terminateOn: TerminateOn;
}

/** A rule's verdict: the loop ends, and whether the rest of the current iteration is removed. */
export interface LoopStop {
  readonly cause: HankLoopEndCause;
  readonly dropRemaining: boolean;
  /** For cause `rule`: the caller rule's own cause name (`tests-pass`). */
  readonly ruleCause?: string;
}

/** One stop condition of a hank loop, in the one stop-rule shape (`util/stop-rule.ts`). */
export type LoopStopRule = StopRule<LoopCodonFinish, LoopStop>;

/**
 * A loop or hank budget ran out at this codon, whatever its position and whether the codon completed
 * or failed with the failure ignored: the loop ends here.
 */
export const stopOnBudget: LoopStopRule = ({ finish }) => {
  // A codon the run's spent ceiling did not start ends its loop with the rest of its iteration kept, so
  // that a later start with a higher ceiling reopens the loop there (`reopenLoop`).
  if (finish.kind === "not-started") return { cause: "budget", dropRemaining: false };
  return budgetScopeOf(finish) !== undefined && budgetScopeOf(finish) !== "codon"
    ? { cause: "budget", dropRemaining: true }
    : undefined;
};

/** The budget that ran out at this finish, if one did. */
function budgetScopeOf(finish: CodonFinish): BudgetScope | undefined {
  if (finish.kind === "budget-exceeded") return finish.scope;
  return finish.kind === "failed-ignored" ? finish.budget : undefined;
}

/** Context ran out in a `contextExceeded` loop, at any codon: the loop ends successfully here. */
export const stopOnContext: LoopStopRule = ({ finish, terminateOn }) =>
  finish.kind === "context-exceeded" && terminateOn.type === "contextExceeded"
    ? { cause: "context_exceeded", dropRemaining: true }
    : undefined;

/**
 * A codon failed for good: the loop ends with `failure`. The rest of the iteration stays in the plan
 * so that a continuation run can retry the failed codon and carry on (`reopenLoop`).
 */
export const stopOnFailure: LoopStopRule = ({ finish }) =>
  finish.kind === "failed" ? { cause: "failure", dropRemaining: false } : undefined;

/** Finishes after which an iteration carries on to its next codon or its end. */
export function carriesOn(finish: CodonFinish): boolean {
  switch (finish.kind) {
    case "completed":
    case "skipped":
      return true;
    case "failed-ignored":
    case "budget-exceeded": {
      const scope = budgetScopeOf(finish);
      return scope === undefined || scope === "codon";
    }
    case "context-exceeded":
    case "failed":
    case "not-started":
      return false;
  }
}

/** At the last codon of iteration N of an `iterationLimit` loop: stop when N >= limit - 1. */
export const stopOnIterationLimit: LoopStopRule = ({ placement, finish, terminateOn }) =>
  terminateOn.type === "iterationLimit" &&
  placement.isLast &&
  carriesOn(finish) &&
  placement.iteration >= terminateOn.limit - 1
    ? { cause: "iteration_limit", dropRemaining: false }
    : undefined;

/** The runtime's rules, in the spec's order: budget, context, failure, then the iteration limit. */
export const LOOP_STOP_RULES: readonly LoopStopRule[] = [
  stopOnBudget,
  stopOnContext,
  stopOnFailure,
  stopOnIterationLimit,
];
