import type { Allocation } from "../../hank/schema/index.ts";
import { roundUsd, sumUsd } from "../../util/dollars.ts";
import type { CeilingValues } from "./ceiling.ts";
import type { BudgetCurrency, BudgetExceeded, CodonLimits } from "./types.ts";

/** The `budget.summary` payload emitted at the end of a run (reference 1.8). */

export type BudgetRowStatus = "completed" | "failed" | "skipped" | "exceeded" | "running";

/** What the engine knows about one codon execution that started. Never-started codons have no record. */
export interface CodonBudgetRecord {
  /** Runtime id (`edit#2`). */
  readonly codonId: string;
  readonly loopContext?: {
    readonly loopId: string;
    readonly iteration: number;
    readonly codonIndexInLoop: number;
  };
  readonly status: "completed" | "failed" | "skipped" | "running";
  /** The limits it ran under; absent when none were resolved (skipped before starting). */
  readonly limits?: CodonLimits;
  readonly exceeded?: BudgetExceeded;
  readonly actual: { readonly dollars: number; readonly timeSeconds: number; readonly outputTokens: number };
}

export interface BudgetSummaryRow {
  readonly codonId: string;
  readonly loopContext?: CodonBudgetRecord["loopContext"];
  /** `exceeded` is a codon that completed because a limit tripped; a budget failure stays `failed`. */
  readonly status: BudgetRowStatus;
  readonly budget: {
    readonly maxDollars?: number;
    readonly maxTimeSeconds?: number;
    readonly maxOutputTokens?: number;
  };
  readonly actual: CodonBudgetRecord["actual"];
  readonly budgetExceeded?: {
    readonly currency: BudgetCurrency;
    readonly limit: number;
    readonly used: number;
  };
}

export interface BudgetSummary {
  readonly ceiling: CeilingValues;
  readonly allocation: Allocation;
  readonly rows: readonly BudgetSummaryRow[];
  readonly totals: {
    readonly budgetDollars?: number;
    readonly budgetTimeSeconds?: number;
    readonly actualDollars: number;
    readonly actualTimeSeconds: number;
    readonly actualOutputTokens: number;
  };
}

export interface BudgetSummaryInput {
  /** The effective global ceiling (`effectiveCeiling`). */
  readonly ceiling: CeilingValues;
  readonly allocation: Allocation;
  /** Executions in plan order. */
  readonly codons: readonly CodonBudgetRecord[];
}

export function budgetSummary(input: BudgetSummaryInput): BudgetSummary {
  const rows = input.codons.map(summaryRow);
  const { maxDollars, maxTimeSeconds } = input.ceiling;
  return {
    ceiling: input.ceiling,
    allocation: input.allocation,
    rows,
    totals: {
      ...(maxDollars !== undefined && { budgetDollars: maxDollars }),
      ...(maxTimeSeconds !== undefined && { budgetTimeSeconds: maxTimeSeconds }),
      actualDollars: sumUsd(rows.map((r) => r.actual.dollars)),
      actualTimeSeconds: rows.reduce((sum, r) => sum + r.actual.timeSeconds, 0),
      actualOutputTokens: rows.reduce((sum, r) => sum + r.actual.outputTokens, 0),
    },
  };
}

function summaryRow(record: CodonBudgetRecord): BudgetSummaryRow {
  const { limits, exceeded } = record;
  const status = record.status === "completed" && exceeded !== undefined ? "exceeded" : record.status;
  return {
    codonId: record.codonId,
    ...(record.loopContext !== undefined && { loopContext: record.loopContext }),
    status,
    budget: {
      ...(limits?.cost !== undefined && { maxDollars: limits.cost.limit }),
      ...(limits?.duration !== undefined && { maxTimeSeconds: limits.duration.limit }),
      ...(limits?.outputTokens !== undefined && { maxOutputTokens: limits.outputTokens.limit }),
    },
    actual: { ...record.actual, dollars: roundUsd(record.actual.dollars) },
    ...(exceeded !== undefined && {
      budgetExceeded: { currency: exceeded.currency, limit: exceeded.limit, used: exceeded.used },
    }),
  };
}
