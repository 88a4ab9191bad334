import type { BudgetExceeded } from "../../events/payloads-common.ts";
import type { Codon, HankFile, Loop } from "../../hank/schema/index.ts";
import type { CodonRecord } from "../../journal/index.ts";
import type { ExecutionPlan, PlannedCodon } from "../../plan/index.ts";
import { loopOf } from "../../plan/index.ts";
import type { EngineOptions } from "../engine-types.ts";
import type { EventSink } from "../run/event-sink.ts";
import type { BudgetChild, CeilingValues, CodonLimits } from "./index.ts";
import { effectiveCeiling, formatUsd, reachedUsd, resolveCodonBudget, sumUsd } from "./index.ts";
import { LoopLedger, type LoopSpend, spentOf } from "./loop-ledger.ts";

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
  const cli = cliCeiling(options);
  const loopSpend = loopSpendOf(plan, entry, spend, ledger);
  return resolveCodonBudget({
    codon: codon.budget,
    hank: {
      budget: hank.overrides?.budget,
      ...(cli !== undefined && { cli }),
      children: hankChildren(hank, entry, records, loopSpend),
      elapsedSeconds: spend.state().totals.durationMs / 1000,
    },
    ...(loop !== undefined && { loop: loopInput(loop, entry, records, loopSpend(entry.topIndex, loop)) }),
  });
}

/**
 * Why no codon may start any more: the run's dollar or time ceiling (`--max-cost` / `--max-time`, else
 * the hank's `overrides.budget`) is used up, counted as budget resolution counts it (every codon and
 * loop of the hank, earlier attempts and runs included). Undefined while something is left. Without
 * this a codon would start with nothing to spend and be stopped at its first billed message.
 */
export function spentCeiling(
  hank: HankFile,
  plan: ExecutionPlan,
  next: PlannedCodon,
  spend: SpendRecords,
  options: EngineOptions,
  ledger: LoopLedger,
): SpentCeiling | undefined {
  const { maxDollars, maxTimeSeconds } = effectiveCeiling({
    hank: hank.overrides?.budget,
    cli: cliCeiling(options),
  });
  if (maxDollars !== undefined) {
    const children = hankChildren(
      hank,
      next,
      (id) => spend.codon(id),
      loopSpendOf(plan, next, spend, ledger),
    );
    const spent = sumUsd(children.map((child) => child.spentDollars));
    if (reachedUsd(spent, maxDollars)) {
      return {
        exceeded: { currency: "cost", limit: maxDollars, used: spent },
        ceiling: `run ceiling ${formatUsd(maxDollars)}`,
        message: `the run ceiling of ${formatUsd(maxDollars)} is spent (${formatUsd(spent)})`,
      };
    }
  }
  if (maxTimeSeconds === undefined) return undefined;
  const elapsedSeconds = spend.state().totals.durationMs / 1000;
  if (elapsedSeconds < maxTimeSeconds) return undefined;
  return {
    exceeded: { currency: "duration", limit: maxTimeSeconds, used: elapsedSeconds },
    ceiling: `run ceiling ${maxTimeSeconds} s`,
    message: `the run ceiling of ${maxTimeSeconds} s is used up (${elapsedSeconds.toFixed(1)} s)`,
  };
}

/** A run ceiling that is used up: which one, in words, and as the `budgetExceeded` it records. */
export interface SpentCeiling {
  readonly exceeded: BudgetExceeded;
  /** `run ceiling $0.0250`, `run ceiling 60 s`. */
  readonly ceiling: string;
  /** A clause for messages: `the run ceiling of $0.0250 is spent ($0.0260)`. */
  readonly message: string;
}

/** `--max-cost` and `--max-time` as a ceiling source; undefined when neither is given. */
function cliCeiling(options: EngineOptions): CeilingValues | undefined {
  if (options.maxCostUsd === undefined && options.maxTimeSeconds === undefined) return undefined;
  return {
    ...(options.maxCostUsd !== undefined && { maxDollars: options.maxCostUsd }),
    ...(options.maxTimeSeconds !== undefined && { maxTimeSeconds: options.maxTimeSeconds }),
  };
}

/** A loop's spend so far, through the run's ledger, with `entry` as the current execution. */
function loopSpendOf(
  plan: ExecutionPlan,
  entry: PlannedCodon,
  spend: SpendRecords,
  ledger: LoopLedger,
): (topIndex: number, item: Loop) => LoopSpend {
  return (topIndex, item) =>
    ledger.spend({
      topIndex,
      entries: plan.entries,
      currentId: entry.runtimeId,
      record: (id) => spend.codon(id),
      capAt: (position) => item.codons[position]?.budget?.maxDollars,
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
