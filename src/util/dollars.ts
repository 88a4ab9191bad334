/**
 * Dollar arithmetic. Amounts are rounded to micro-dollars (6 decimals) wherever a sum, a difference or a
 * share is formed, and compared after that rounding. Cents would be too coarse (one small-model response
 * costs a fraction of a cent); raw floats would make "$5 - $0.80 - $3.50" differ from $0.70.
 */

const MICROS = 1_000_000;

/** Rounds to micro-dollars. */
export function roundUsd(amount: number): number {
  return Math.round(amount * MICROS) / MICROS;
}

/** The sum of amounts, rounded to micro-dollars. */
export function sumUsd(amounts: Iterable<number>): number {
  let total = 0;
  for (const amount of amounts) total += amount;
  return roundUsd(total);
}

/** `a - b`, never below zero, rounded to micro-dollars. */
export function remainingUsd(a: number, b: number): number {
  return Math.max(0, roundUsd(a - b));
}

/** Whether `used` has reached `limit`, compared at micro-dollar precision. */
export function reachedUsd(used: number, limit: number): boolean {
  return roundUsd(used) >= roundUsd(limit);
}

/** `$1.2346`: four decimals, the precision of budget messages. */
export function formatUsd(amount: number): string {
  return `$${amount.toFixed(4)}`;
}
