import type { Codon, HankFile, Loop } from "../hank/schema/index.ts";
import type { CodonRecord } from "../journal/index.ts";
import type { ExecutionPlan, PlannedCodon } from "../plan/index.ts";
import { loopOf } from "../plan/index.ts";
import type { BudgetChild, CodonLimits } from "./budget/index.ts";
import { resolveCodonBudget } from "./budget/index.ts";
import type { EngineOptions } from "./engine-types.ts";
import type { EventSink } from "./event-sink.ts";

/** Where the spend so far is read: the live run state and its codon index. */
export type SpendRecords = Pick<EventSink, "state" | "codon">;

const TERMINAL = new Set(["completed", "failed", "skipped"]);

/** True when no budget of any scope can apply, so resolution can be skipped on the hot path. */
function hasNoBudget(hank: HankFile, codon: Codon, loop: Loop | undefined, options: EngineOptions): boolean {
  return (
    hank.overrides?.budget === undefined &&
    loop?.budget === undefined &&
    codon.budget === undefined &&
    options.maxCostUsd === undefined &&
    options.maxTimeSeconds === undefined
  );
}

function spentOf(record: CodonRecord | undefined): number {
  return record === undefined ? 0 : record.cost + record.runningCost;
}

/**
 * The limits one codon execution runs under, from the budgets of every scope and what was spent so far
 * (earlier attempts and earlier runs included: the journal's run state is the source).
 */
export function resolveLimits(
  hank: HankFile,
  plan: ExecutionPlan,
  entry: PlannedCodon,
  codon: Codon,
  spend: SpendRecords,
  options: EngineOptions,
): CodonLimits {
  const loop = loopOf(hank, entry);
  if (hasNoBudget(hank, codon, loop, options)) return { onExceeded: "complete" };
  const records = (id: string): CodonRecord | undefined => spend.codon(id);
  const cli = {
    ...(options.maxCostUsd !== undefined && { maxDollars: options.maxCostUsd }),
    ...(options.maxTimeSeconds !== undefined && { maxTimeSeconds: options.maxTimeSeconds }),
  };
  return resolveCodonBudget({
    codon: codon.budget,
    hank: {
      budget: hank.overrides?.budget,
      ...(Object.keys(cli).length > 0 && { cli }),
      children: hankChildren(hank, plan, entry, records),
      elapsedSeconds: spend.state().totals.durationMs / 1000,
    },
    ...(loop !== undefined && { loop: loopInput(loop, plan, entry, records) }),
  });
}

function hankChildren(
  hank: HankFile,
  plan: ExecutionPlan,
  entry: PlannedCodon,
  records: (id: string) => CodonRecord | undefined,
): BudgetChild[] {
  return hank.hank.map((item, index): BudgetChild => {
    const status = index === entry.topIndex ? "current" : index < entry.topIndex ? "finished" : "pending";
    if (item.type === "loop") {
      const spent = plan.entries
        .filter((e) => e.topIndex === index)
        .reduce((sum, e) => sum + spentOf(records(e.runtimeId)), 0);
      return { id: item.id, kind: "loop", status, spentDollars: spent, capDollars: item.budget?.maxDollars };
    }
    return {
      id: item.id,
      kind: "codon",
      status,
      spentDollars: spentOf(records(item.id)),
      capDollars: item.budget?.maxDollars,
    };
  });
}

function loopInput(
  loop: Loop,
  plan: ExecutionPlan,
  entry: PlannedCodon,
  records: (id: string) => CodonRecord | undefined,
) {
  const executions = plan.entries.filter((e) => e.topIndex === entry.topIndex);
  const children = executions.map((e): BudgetChild => {
    const record = records(e.runtimeId);
    const finished = record !== undefined && TERMINAL.has(record.status) && e.runtimeId !== entry.runtimeId;
    return {
      id: e.configId,
      kind: "codon",
      status: e.runtimeId === entry.runtimeId ? "current" : finished ? "finished" : "pending",
      spentDollars: spentOf(record),
      capDollars: loop.codons[e.loop?.position ?? 0]?.budget?.maxDollars,
    };
  });
  const elapsedMs = executions.reduce((sum, e) => sum + (records(e.runtimeId)?.durationMs ?? 0), 0);
  return { id: loop.id, budget: loop.budget, children, elapsedSeconds: elapsedMs / 1000 };
}
