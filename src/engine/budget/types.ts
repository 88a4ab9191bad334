import type { OnExceeded } from "../../hank/schema/index.ts";
import type { BudgetScope } from "../../plan/index.ts";

/** The four things a budget can limit (reference 1.8). */
export const BUDGET_CURRENCIES = ["cost", "duration", "outputTokens", "contextTokens"] as const;
export type BudgetCurrency = (typeof BUDGET_CURRENCIES)[number];

/** A codon's own caps, one per currency, as written in `codon.budget`. */
export interface BudgetLimits {
  readonly maxDollars?: number;
  readonly maxTimeSeconds?: number;
  readonly maxOutputTokens?: number;
  readonly maxContextTokens?: number;
}

/** One resolved limit and where it came from. */
export interface ResolvedLimit {
  readonly limit: number;
  /** Whose budget it is, and so what its trip ends: the codon only, its loop, or the hank. */
  readonly scope: BudgetScope;
  /** Where it came from, for messages only ("shared pool", "codon cap", ...): never decided on. */
  readonly source: string;
}

/** A duration limit; `loop` is set when the loop's remaining time is the binding limit. */
export interface DurationLimit extends ResolvedLimit {
  readonly loop?: {
    readonly id: string;
    /** The loop's own time budget. */
    readonly limitSeconds: number;
    /** Time the loop had used when this codon started. */
    readonly elapsedBeforeSeconds: number;
  };
}

/** The limits one codon execution runs under; a missing currency is unlimited. */
export interface CodonLimits {
  readonly cost?: ResolvedLimit;
  readonly duration?: DurationLimit;
  readonly outputTokens?: ResolvedLimit;
  readonly contextTokens?: ResolvedLimit;
  /** What happens when a limit trips: the codon's own policy, else the loop's, else the hank's. */
  readonly onExceeded: OnExceeded;
}

/** A tripped limit. `used >= limit` at the moment it tripped. */
export interface BudgetExceeded {
  readonly currency: BudgetCurrency;
  readonly limit: number;
  readonly used: number;
  readonly message: string;
}
