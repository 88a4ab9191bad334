import type { LimitValues } from "./limits.ts";

/**
 * The five meters of a run and its budgets. Tokens are input + output + cache read + cache write of
 * bodies and judge gates together; a source that reports no usage makes the meter unknown (its count
 * is then a lower bound), never 0. Wall clock counts running time only. Cost is a meter, never a cap.
 */
export interface Meters {
  readonly generations: number;
  readonly tokens: number;
  /** False once any body or judge reported no usage: `tokens` is then a lower bound. */
  readonly tokensKnown: boolean;
  /** Milliseconds spent in `running` (never queued, watching, parked, or with no driver). */
  readonly runningMs: number;
  /** Generations in a row without progress (the no-progress window's count). */
  readonly noProgress: number;
  readonly costUsd: number;
  readonly costKnown: boolean;
}

export const ZERO_METERS: Meters = {
  generations: 0,
  tokens: 0,
  tokensKnown: true,
  runningMs: 0,
  noProgress: 0,
  costUsd: 0,
  costKnown: true,
};

export type BudgetKind = "tokens" | "wall_clock";

/** An approval of a budget escalation adds an amount; each one is recorded with the run. */
export interface BudgetAmendment {
  readonly budget: BudgetKind;
  /** Tokens, or seconds of running time. */
  readonly add: number;
  readonly by: string;
  readonly at: string;
}

export interface EffectiveBudgets {
  /** 0 = off. */
  readonly tokens: number;
  /** Seconds; 0 = off. */
  readonly wallClockSec: number;
}

/** The pinned budgets plus every approved amount. A budget that is off stays off. */
export function effectiveBudgets(
  limits: LimitValues,
  amendments: readonly BudgetAmendment[],
): EffectiveBudgets {
  const added = (kind: BudgetKind) =>
    amendments.filter((a) => a.budget === kind).reduce((sum, a) => sum + a.add, 0);
  return {
    tokens: limits.budget_tokens === 0 ? 0 : limits.budget_tokens + added("tokens"),
    wallClockSec: limits.budget_wall_clock_sec === 0 ? 0 : limits.budget_wall_clock_sec + added("wall_clock"),
  };
}

/** The first budget the meters exceed, tokens first; null when none is. */
export function exceededBudget(meters: Meters, budgets: EffectiveBudgets): BudgetKind | null {
  if (budgets.tokens > 0 && meters.tokens > budgets.tokens) return "tokens";
  if (budgets.wallClockSec > 0 && meters.runningMs > budgets.wallClockSec * 1000) return "wall_clock";
  return null;
}

/** Adds a body's or a judge's usage; `null` (not reported) makes the meter unknown. */
export function addTokens(meters: Meters, tokens: number | null): Meters {
  return tokens === null ? { ...meters, tokensKnown: false } : { ...meters, tokens: meters.tokens + tokens };
}
