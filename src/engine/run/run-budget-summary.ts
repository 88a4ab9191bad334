import type { CodonRecord } from "../../journal/index.ts";
import type { ExecutionPlan, PlannedCodon } from "../../plan/index.ts";
import type { CodonBudgetRecord } from "../budget/index.ts";
import { budgetSummary, effectiveCeiling } from "../budget/index.ts";
import type { CodonOutcome } from "../codon/codon-outcome.ts";
import type { EngineInput } from "../engine-types.ts";
import type { EventSink } from "./event-sink.ts";

/** What each codon ran under, for the budget summary: only the two fields it reads, kept small. */
export type BudgetOutcome = Pick<CodonOutcome, "limits" | "exceeded">;

export function budgetOutcome(outcome: CodonOutcome): BudgetOutcome {
  return {
    ...(outcome.limits !== undefined && { limits: outcome.limits }),
    ...(outcome.exceeded !== undefined && { exceeded: outcome.exceeded }),
  };
}

/** Emits `budget.summary` for every planned codon that ran, with the run-wide ceiling. */
export function emitBudgetSummary(
  input: EngineInput,
  sink: EventSink,
  plan: ExecutionPlan,
  budgets: ReadonlyMap<string, BudgetOutcome>,
): void {
  const hankBudget = input.hank.overrides?.budget;
  const { maxCostUsd, maxTimeSeconds } = input.options;
  const cli = {
    ...(maxCostUsd !== undefined && { maxDollars: maxCostUsd }),
    ...(maxTimeSeconds !== undefined && { maxTimeSeconds }),
  };
  const codons: CodonBudgetRecord[] = [];
  for (const entry of plan.entries) {
    const record = sink.codon(entry.runtimeId);
    if (record === undefined) continue;
    codons.push(budgetRecord(entry, record, budgets.get(entry.runtimeId)));
  }
  const summary = budgetSummary({
    ceiling: effectiveCeiling({ hank: hankBudget, cli }),
    allocation: hankBudget?.allocation ?? "shared",
    codons,
  });
  sink.emit("budget.summary", { ...summary, rows: [...summary.rows] });
}

function budgetRecord(
  entry: PlannedCodon,
  record: CodonRecord,
  outcome: BudgetOutcome | undefined,
): CodonBudgetRecord {
  const status =
    record.status === "completed" || record.status === "failed" || record.status === "skipped"
      ? record.status
      : "running";
  return {
    codonId: entry.runtimeId,
    ...(entry.loop !== undefined && {
      loopContext: {
        loopId: entry.loop.loopId,
        iteration: entry.loop.iteration,
        codonIndexInLoop: entry.loop.position,
      },
    }),
    status,
    ...(outcome?.limits !== undefined && { limits: outcome.limits }),
    ...(outcome?.exceeded !== undefined && { exceeded: outcome.exceeded }),
    actual: {
      dollars: record.cost,
      timeSeconds: record.durationMs / 1000,
      outputTokens: record.tokens.output,
    },
  };
}
