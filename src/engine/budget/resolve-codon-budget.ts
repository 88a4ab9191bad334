import type { CodonBudget, ContainerBudget } from "../../hank/schema/index.ts";
import { roundUsd, sumUsd } from "../../util/dollars.ts";
import {
  allocateChild,
  type BudgetChild,
  type DollarPool,
  type SettledChildren,
  withSettled,
} from "./allocate-child.ts";
import { type CeilingValues, effectiveCeiling } from "./ceiling.ts";
import type { CodonLimits, DurationLimit, ResolvedLimit } from "./types.ts";

/**
 * Per-codon limit resolution (reference 1.8), a pure function of what the engine knows when a codon
 * execution starts. The engine builds the input from the plan and the run state:
 *
 * - `hank.children`: the hank's items in plan order (codons, and each loop as one child whose spend is
 *   the sum of its executions), the item holding the current codon marked `current`.
 * - `loop.children`: when the codon runs inside a loop, the loop's executions so far in order
 *   (`x#0`, `y#0`, `x#1`, ...), each under its config id, the current one marked `current`; a leading
 *   run of finished ones may be given as `loop.settled` running totals instead (same result).
 * - spends include failed attempts and prior runs (that is how a resume hydrates what is left);
 *   elapsed times include prior runs.
 *
 * The codon's own budget is the authority for its caps; `capDollars` of its own child entry is ignored.
 */
export interface ResolveCodonBudgetInput {
  /** `codon.budget`. */
  readonly codon: CodonBudget | undefined;
  readonly hank: {
    /** `overrides.budget`: allocation, shares, onExceeded, and its part of the ceiling. */
    readonly budget: ContainerBudget | undefined;
    /** The `hankweave.json` budget. */
    readonly runtime?: CeilingValues | undefined;
    /** `--max-cost` / `--max-time`: they replace the ceiling. */
    readonly cli?: CeilingValues | undefined;
    readonly children: readonly BudgetChild[];
    /** Seconds the hank has run, prior runs included. */
    readonly elapsedSeconds: number;
  };
  readonly loop?: {
    readonly id: string;
    readonly budget: ContainerBudget | undefined;
    readonly children: readonly BudgetChild[];
    /** Finished executions before `children`, as running totals. */
    readonly settled?: SettledChildren;
    /** Seconds the loop has run, prior runs included. */
    readonly elapsedSeconds: number;
  };
}

export function resolveCodonBudget(input: ResolveCodonBudgetInput): CodonLimits {
  const { codon } = input;
  const cost = resolveCost(input);
  const duration = resolveDuration(input);
  const onExceeded = codon?.onExceeded ?? input.loop?.budget?.onExceeded ?? input.hank.budget?.onExceeded;
  return {
    ...(cost !== undefined && { cost }),
    ...(duration !== undefined && { duration }),
    ...(codon?.maxOutputTokens !== undefined && {
      outputTokens: { limit: codon.maxOutputTokens, scope: "codon", source: "codon cap" },
    }),
    ...(codon?.maxContextTokens !== undefined && {
      contextTokens: { limit: codon.maxContextTokens, scope: "codon", source: "codon cap" },
    }),
    onExceeded: onExceeded ?? "complete",
  };
}

function hankPool(input: ResolveCodonBudgetInput): Omit<DollarPool, "children"> | undefined {
  const { hank } = input;
  const { maxDollars } = effectiveCeiling({ runtime: hank.runtime, hank: hank.budget, cli: hank.cli });
  if (maxDollars === undefined) return undefined;
  return {
    maxDollars,
    allocation: hank.budget?.allocation ?? "shared",
    shares: hank.budget?.shares ?? {},
    scope: "hank",
    label: "",
  };
}

/** Replaces the current child's cap (the authority is the budget passed alongside). */
function withCurrentCap(children: readonly BudgetChild[], cap: number | undefined): BudgetChild[] {
  return children.map((c) => (c.status === "current" ? { ...c, capDollars: cap } : c));
}

function resolveCost(input: ResolveCodonBudgetInput): ResolvedLimit | undefined {
  const codonCap = input.codon?.maxDollars;
  const capOnly: ResolvedLimit | undefined =
    codonCap === undefined ? undefined : { limit: codonCap, scope: "codon", source: "codon cap" };
  const hank = hankPool(input);
  const { loop } = input;
  if (loop === undefined) {
    return hank === undefined
      ? capOnly
      : allocateChild({ ...hank, children: withCurrentCap(input.hank.children, codonCap) });
  }
  // The loop is one child of the hank; what the hank grants it bounds the loop's own pool.
  const loopCap = loop.budget?.maxDollars;
  const granted =
    hank === undefined
      ? undefined
      : allocateChild({ ...hank, children: withCurrentCap(input.hank.children, loopCap) });
  const ownsDollars = loopCap !== undefined || (loop.budget?.allocation ?? "shared") !== "shared";
  if (!ownsDollars) {
    // A loop without a dollar policy of its own is transparent: its codons draw on what the hank grants it.
    if (granted === undefined) return capOnly;
    return capOnly !== undefined && capOnly.limit < granted.limit ? capOnly : granted;
  }
  const loopSpent = sumUsd(
    withSettled(
      loop.settled?.spentDollars,
      loop.children.map((c) => c.spentDollars),
    ),
  );
  const poolMax = granted === undefined ? loopCap : roundUsd(loopSpent + granted.limit);
  if (poolMax === undefined) return capOnly;
  return allocateChild({
    maxDollars: poolMax,
    allocation: loop.budget?.allocation ?? "shared",
    shares: loop.budget?.shares ?? {},
    children: withCurrentCap(loop.children, codonCap),
    scope: "loop",
    label: `loop ${loop.id} `,
    ...(loop.settled !== undefined && { settled: loop.settled }),
  });
}

/** min(codon cap, the loop's remaining time, the hank's remaining time); never below zero. */
function resolveDuration(input: ResolveCodonBudgetInput): DurationLimit | undefined {
  const { hank, loop, codon } = input;
  const terms: DurationLimit[] = [];
  if (codon?.maxTimeSeconds !== undefined) {
    terms.push({ limit: codon.maxTimeSeconds, scope: "codon", source: "codon cap" });
  }
  const loopMax = loop?.budget?.maxTimeSeconds;
  if (loop !== undefined && loopMax !== undefined) {
    terms.push({
      limit: Math.max(0, loopMax - loop.elapsedSeconds),
      scope: "loop",
      source: `loop ${loop.id} remaining time`,
      loop: { id: loop.id, limitSeconds: loopMax, elapsedBeforeSeconds: loop.elapsedSeconds },
    });
  }
  const { maxTimeSeconds } = effectiveCeiling({ runtime: hank.runtime, hank: hank.budget, cli: hank.cli });
  if (maxTimeSeconds !== undefined) {
    terms.push({
      limit: Math.max(0, maxTimeSeconds - hank.elapsedSeconds),
      scope: "hank",
      source: "hank remaining time",
    });
  }
  if (terms.length === 0) return undefined;
  return terms.reduce((best, term) => (term.limit < best.limit ? term : best));
}
