import type { Allocation } from "../../hank/schema/index.ts";
import { remainingUsd, roundUsd, sumUsd } from "../../util/dollars.ts";
import type { ResolvedLimit } from "./types.ts";

/**
 * How a container's dollar pool is divided among its children (reference 1.8). A child is a codon or a
 * loop of the hank, or one execution of a loop's codon (`edit#0`, `edit#1`: each its own child).
 */

export interface BudgetChild {
  /** The config id: the key of `shares` (`edit` for `edit#2`). */
  readonly id: string;
  /**
   * A codon's allocation is per execution: its earlier attempts count against the pool, not against its
   * share. A loop's allocation covers its whole life, so its own spending so far is taken off.
   */
  readonly kind: "codon" | "loop";
  /** `finished` covers completed, failed and skipped (skipped spent $0). */
  readonly status: "finished" | "current" | "pending";
  /** Dollars spent so far, every attempt and prior run included. */
  readonly spentDollars: number;
  /** The child's own `maxDollars`: a codon's `budget.maxDollars`, a loop's `budget.maxDollars`. */
  readonly capDollars?: number | undefined;
}

export interface DollarPool {
  readonly maxDollars: number;
  readonly allocation: Allocation;
  readonly shares: Readonly<Record<string, number>>;
  /** Siblings in plan order, exactly one `current`; `settled` ones come before them. */
  readonly children: readonly BudgetChild[];
  /** Whose pool it is: a trip of one of its terms ends that scope. */
  readonly scope: "loop" | "hank";
  /** Prefix for source labels ("loop review "), empty for the hank. */
  readonly label: string;
  /**
   * Finished children that precede `children`, given as running totals instead of one entry each, so a
   * loop's ten-thousandth execution costs the same to resolve as its first. Absent: none.
   */
  readonly settled?: SettledChildren;
}

/**
 * Running totals over finished children, in plan order. Sums are plain floating-point sums, not rounded,
 * so continuing one with the next children gives exactly the sum over all of them.
 */
export interface SettledChildren {
  readonly spentDollars: number;
  /** The sum, over the same children, of `strictConsumption` under `pool`. */
  strictConsumed(pool: StrictPool): number;
}

/** What a finished child's proportional-strict consumption depends on. */
export type StrictPool = Pick<DollarPool, "maxDollars" | "shares">;

/**
 * proportional-strict: a finished child consumed the larger of its allocation and its spend, so money
 * it left unspent is gone. Its allocation is its share (capped by its own cap), or nothing when unshared.
 */
export function strictConsumption(
  pool: StrictPool,
  child: Pick<BudgetChild, "id" | "spentDollars" | "capDollars">,
): number {
  const share = shareOf(pool, child.id);
  const allocation =
    share === undefined ? 0 : Math.min(share * pool.maxDollars, child.capDollars ?? Infinity);
  return Math.max(allocation, child.spentDollars);
}

/** The dollars the current child may spend now, with the label of the binding term. */
export function allocateChild(pool: DollarPool): ResolvedLimit {
  const current = currentChild(pool.children);
  const spent = sumUsd(
    withSettled(
      pool.settled?.spentDollars,
      pool.children.map((c) => c.spentDollars),
    ),
  );
  const remaining = remainingUsd(pool.maxDollars, spent);
  const own = current.kind === "loop" ? current.spentDollars : 0;
  const lifetime = lifetimeTerms(pool, current).map((t) => ({ ...t, limit: remainingUsd(t.limit, own) }));
  const remainingSource = pool.allocation === "shared" ? "shared pool" : "remaining";
  return lowest([
    ...lifetime,
    { limit: remaining, scope: pool.scope, source: `${pool.label}${remainingSource}` },
  ]);
}

/** The terms that bound the child's allocation over its whole life; the lowest one wins. */
function lifetimeTerms(pool: DollarPool, current: BudgetChild): ResolvedLimit[] {
  const { label, scope } = pool;
  const capName = `${current.kind} cap`;
  // The child's own cap is the child's budget: a codon's ends the codon, a loop's ends the loop.
  const capScope = current.kind;
  const terms: ResolvedLimit[] = [];
  const share = pool.allocation === "shared" ? undefined : shareOf(pool, current.id);
  if (share !== undefined) {
    const amount = roundUsd(share * pool.maxDollars);
    const kind = pool.allocation === "proportional" ? "proportional" : "strict";
    terms.push({
      limit: amount,
      scope,
      source: `${label}${kind} share (${percent(share)} of $${pool.maxDollars.toFixed(2)})`,
    });
    if (current.capDollars !== undefined) {
      terms.push({
        limit: current.capDollars,
        scope: capScope,
        source: `${capName} (share was $${amount.toFixed(2)})`,
      });
    }
  } else if (current.capDollars !== undefined) {
    // An explicit cap replaces the uniform split: the child takes part in no split.
    terms.push({ limit: current.capDollars, scope: capScope, source: capName });
  } else if (pool.allocation !== "shared") {
    const strict = pool.allocation === "proportional-strict" ? " (strict)" : "";
    terms.push({ limit: uniformShare(pool), scope, source: `${label}uniform share${strict}` });
  }
  if (pool.allocation === "proportional-strict") {
    terms.push({ limit: strictRemaining(pool), scope, source: `${label}strict remaining` });
  }
  return terms;
}

/**
 * The unallocated fraction of the pool, split evenly among the current child and the pending children
 * that have neither a share nor a cap. Finished children take no part: what they left flows back
 * through the remaining pool.
 */
function uniformShare(pool: DollarPool): number {
  const totalShares = Object.values(pool.shares).reduce((sum, share) => sum + share, 0);
  const unallocated = Math.max(0, 1 - totalShares) * pool.maxDollars;
  const takers = pool.children.filter(
    (c) => c.status === "pending" && shareOf(pool, c.id) === undefined && c.capDollars === undefined,
  ).length;
  return roundUsd(unallocated / (takers + 1));
}

/** proportional-strict: what the finished children did not consume (see `strictConsumption`). */
function strictRemaining(pool: DollarPool): number {
  const consumed = pool.children
    .filter((c) => c.status === "finished")
    .map((c) => strictConsumption(pool, c));
  return remainingUsd(pool.maxDollars, sumUsd(withSettled(pool.settled?.strictConsumed(pool), consumed)));
}

/** The settled running total first, then the amounts: summed in that order, as over all the children. */
export function withSettled(settled: number | undefined, amounts: readonly number[]): readonly number[] {
  return settled === undefined ? amounts : [settled, ...amounts];
}

/** Own keys only: a child named `constructor` has no share. */
function shareOf(pool: Pick<DollarPool, "shares">, id: string): number | undefined {
  return Object.hasOwn(pool.shares, id) ? pool.shares[id] : undefined;
}

function currentChild(children: readonly BudgetChild[]): BudgetChild {
  const current = children.filter((c) => c.status === "current");
  const [only] = current;
  if (only === undefined || current.length > 1) {
    throw new Error(`A budget pool needs exactly one current child, found ${current.length}`);
  }
  return only;
}

/** The lowest term; on a tie the earlier one names the source. */
function lowest(terms: readonly ResolvedLimit[]): ResolvedLimit {
  return terms.reduce((best, term) => (term.limit < best.limit ? term : best));
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
