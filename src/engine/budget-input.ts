import type { Codon, HankFile, Loop } from "../hank/schema/index.ts";
import type { CodonRecord } from "../journal/index.ts";
import type { ExecutionPlan, PlannedCodon } from "../plan/index.ts";
import { loopOf } from "../plan/index.ts";
import type { BudgetChild, CodonLimits } from "./budget/index.ts";
import { resolveCodonBudget } from "./budget/index.ts";
import { LoopLedger, type LoopSpend, spentOf } from "./budget/loop-ledger.ts";
import type { EngineOptions } from "./engine-types.ts";
import type { EventSink } from "./event-sink.ts";

/** Where the spend so far is read: the live run state and its codon index. */
export type SpendRecords = Pick<EventSink, "state" | "codon">;

const TERMINAL = new Set(["completed", "failed", "skipped"]);

export { LoopLedger };

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

/**
 * The limits one codon execution runs under, from the budgets of every scope and what was spent so far
 * (earlier attempts and earlier runs included: the journal's run state is the source). `ledger` keeps
 * the running totals of the loops' finished executions between the calls of one run; a fresh one (the
 * default) gives the same limits, only at a cost that grows with the loops.
 */
export function resolveLimits(
  hank: HankFile,
  plan: ExecutionPlan,
  entry: PlannedCodon,
  codon: Codon,
  spend: SpendRecords,
  options: EngineOptions,
  ledger: LoopLedger = new LoopLedger(),
): CodonLimits {
  const loop = loopOf(hank, entry);
  if (hasNoBudget(hank, codon, loop, options)) return { onExceeded: "complete" };
  const records = (id: string): CodonRecord | undefined => spend.codon(id);
  const loopSpend = (topIndex: number, item: Loop): LoopSpend =>
    ledger.spend({
      topIndex,
      entries: plan.entries,
      currentId: entry.runtimeId,
      record: records,
      capAt: (position) => item.codons[position]?.budget?.maxDollars,
    });
  const cli = {
    ...(options.maxCostUsd !== undefined && { maxDollars: options.maxCostUsd }),
    ...(options.maxTimeSeconds !== undefined && { maxTimeSeconds: options.maxTimeSeconds }),
  };
  return resolveCodonBudget({
    codon: codon.budget,
    hank: {
      budget: hank.overrides?.budget,
      ...(Object.keys(cli).length > 0 && { cli }),
      children: hankChildren(hank, entry, records, loopSpend),
      elapsedSeconds: spend.state().totals.durationMs / 1000,
    },
    ...(loop !== undefined && { loop: loopInput(loop, entry, records, loopSpend(entry.topIndex, loop)) }),
  });
}

function hankChildren(
  hank: HankFile,
  entry: PlannedCodon,
  records: (id: string) => CodonRecord | undefined,
  loopSpend: (topIndex: number, loop: Loop) => LoopSpend,
): BudgetChild[] {
  return hank.hank.map((item, index): BudgetChild => {
    const status = index === entry.topIndex ? "current" : index < entry.topIndex ? "finished" : "pending";
    if (item.type === "loop") {
      const { settled, rest } = loopSpend(index, item);
      const spent = rest.reduce((sum, e) => sum + spentOf(records(e.runtimeId)), settled.spentDollars);
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

/** The loop's pool: its finished executions as running totals, then the live ones one by one. */
function loopInput(
  loop: Loop,
  entry: PlannedCodon,
  records: (id: string) => CodonRecord | undefined,
  spend: LoopSpend,
) {
  const children = spend.rest.map((e): BudgetChild => {
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
  const elapsedMs = spend.rest.reduce(
    (sum, e) => sum + (records(e.runtimeId)?.durationMs ?? 0),
    spend.settledDurationMs,
  );
  return {
    id: loop.id,
    budget: loop.budget,
    children,
    settled: spend.settled,
    elapsedSeconds: elapsedMs / 1000,
  };
}
