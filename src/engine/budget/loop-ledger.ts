import type { PlannedCodon } from "../../plan/index.ts";
import { type SettledChildren, type StrictPool, strictConsumption } from "./allocate-child.ts";

/** What the ledger reads of a codon execution's record (a `CodonRecord` fits). */
export interface SpendRecord {
  readonly status: string;
  readonly cost: number;
  readonly runningCost: number;
  readonly durationMs: number;
}

/** Finished executions of one loop, as running totals, and the executions after them. */
export interface LoopSpend {
  readonly settled: SettledChildren;
  /** The settled executions' milliseconds, summed in plan order (not rounded). */
  readonly settledDurationMs: number;
  /** The loop's executions after the settled ones, in plan order: the live iteration. */
  readonly rest: readonly PlannedCodon[];
}

export interface LoopSpendQuery {
  /** The loop's index in the hank (its entries' `topIndex`). */
  readonly topIndex: number;
  readonly entries: readonly PlannedCodon[];
  /** The runtime id of the codon being resolved: never settled, since it is about to spend. */
  readonly currentId: string;
  readonly record: (runtimeId: string) => SpendRecord | undefined;
  /** The `maxDollars` of the loop's codon at a position, for proportional-strict consumption. */
  readonly capAt: (position: number) => number | undefined;
}

const FINISHED = new Set(["completed", "failed", "skipped"]);

export function spentOf(record: SpendRecord | undefined): number {
  return record === undefined ? 0 : record.cost + record.runningCost;
}

/**
 * Running totals of each loop's finished executions, kept across the codons of one run so that budget
 * resolution costs the same at a loop's ten-thousandth execution as at its first (summing over every
 * execution made it grow with the loop).
 *
 * A loop's executions are one contiguous block of the plan. The ledger folds the block's leading run of
 * finished executions once each. A finished record changes again only when its codon runs again (a redo:
 * it is then the codon being resolved) or when records are dropped (a rollback, a new run line); both are
 * detected (the codon being resolved is among the folded, or the last folded record is no longer the one
 * folded: records are replaced, never changed in place) and the loop is folded again from its start.
 */
export class LoopLedger {
  readonly #folds = new Map<number, LoopFold>();

  spend(query: LoopSpendQuery): LoopSpend {
    const start = blockStart(query.entries, query.topIndex);
    let fold = this.#folds.get(query.topIndex);
    if (fold === undefined || !fold.stillValid(start, query)) {
      fold = new LoopFold(query.topIndex, start);
      this.#folds.set(query.topIndex, fold);
    }
    fold.advance(query);
    return { settled: fold, settledDurationMs: fold.durationMs, rest: fold.rest(query.entries) };
  }
}

/**
 * Where the loop's block starts: the first entry with this `topIndex` (entries are in hank order, so
 * their `topIndex` never decreases), found by binary search; the plan's length when it has none.
 */
function blockStart(entries: readonly PlannedCodon[], topIndex: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((entries[middle]?.topIndex ?? Number.POSITIVE_INFINITY) < topIndex) low = middle + 1;
    else high = middle;
  }
  return low;
}

type Shares = StrictPool["shares"];

/** The same shares object, or two without any share (`shares` defaults to a fresh `{}`). */
function sameShares(a: Shares, b: Shares): boolean {
  return a === b || (Object.keys(a).length === 0 && Object.keys(b).length === 0);
}

interface FoldedExecution {
  readonly id: string;
  readonly capDollars: number | undefined;
  readonly spentDollars: number;
}

class LoopFold implements SettledChildren {
  spentDollars = 0;
  durationMs = 0;
  readonly #folded: FoldedExecution[] = [];
  readonly #ids = new Set<string>();
  #lastRecord: SpendRecord | undefined;
  #strict: { readonly maxDollars: number; readonly shares: Shares; sum: number; count: number } | undefined;

  constructor(
    readonly topIndex: number,
    /** Index of the loop's first execution in the plan. */
    readonly start: number,
  ) {}

  /** Whether the folded executions are still the plan's and their records the ones folded. */
  stillValid(start: number, query: LoopSpendQuery): boolean {
    if (start !== this.start || this.#ids.has(query.currentId)) return false;
    const count = this.#folded.length;
    if (count === 0) return true;
    const last = query.entries[start + count - 1];
    return last !== undefined && query.record(last.runtimeId) === this.#lastRecord;
  }

  /** Folds the finished executions that follow the folded ones. */
  advance(query: LoopSpendQuery): void {
    const { entries } = query;
    for (let at = this.start + this.#folded.length; at < entries.length; at++) {
      const entry = entries[at];
      if (entry === undefined || entry.topIndex !== this.topIndex || entry.runtimeId === query.currentId)
        return;
      const record = query.record(entry.runtimeId);
      if (record === undefined || !FINISHED.has(record.status)) return;
      const spentDollars = spentOf(record);
      this.spentDollars += spentDollars;
      this.durationMs += record.durationMs;
      this.#folded.push({
        id: entry.configId,
        capDollars: query.capAt(entry.loop?.position ?? 0),
        spentDollars,
      });
      this.#ids.add(entry.runtimeId);
      this.#lastRecord = record;
    }
  }

  rest(entries: readonly PlannedCodon[]): PlannedCodon[] {
    const out: PlannedCodon[] = [];
    for (let at = this.start + this.#folded.length; at < entries.length; at++) {
      const entry = entries[at];
      if (entry === undefined || entry.topIndex !== this.topIndex) break;
      out.push(entry);
    }
    return out;
  }

  /**
   * Consumption under a proportional-strict pool, continued from the last call while the pool is the
   * same; a pool of another size (a loop drawing on a hank pool) sums the folded executions again.
   */
  strictConsumed(pool: StrictPool): number {
    let strict = this.#strict;
    if (
      strict === undefined ||
      strict.maxDollars !== pool.maxDollars ||
      !sameShares(strict.shares, pool.shares)
    ) {
      strict = { maxDollars: pool.maxDollars, shares: pool.shares, sum: 0, count: 0 };
      this.#strict = strict;
    }
    for (; strict.count < this.#folded.length; strict.count++) {
      const folded = this.#folded[strict.count];
      if (folded !== undefined) strict.sum += strictConsumption(pool, folded);
    }
    return strict.sum;
  }
}
