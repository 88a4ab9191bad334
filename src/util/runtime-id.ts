/**
 * Runtime ids name one planned execution of a codon. Outside loops the runtime id is the config id;
 * inside a loop it is `<configId>#<iteration>`, 0-based (`review#0`, `review#1`).
 */

export function runtimeIdOf(configId: string, iteration?: number): string {
  return iteration === undefined ? configId : `${configId}#${iteration}`;
}

export interface ParsedRuntimeId {
  readonly configId: string;
  /** Present when the id carries a `#<n>` suffix. */
  readonly iteration?: number;
}

/**
 * Splits a runtime id at its last `#<digits>` suffix. A config id that itself ends in `#<digits>` is
 * ambiguous here; `runtimeIdCollisions` reports such hanks at validation time.
 */
export function parseRuntimeId(runtimeId: string): ParsedRuntimeId {
  const match = /^(.*)#(0|[1-9]\d*)$/.exec(runtimeId);
  const configId = match?.[1];
  const digits = match?.[2];
  if (configId === undefined || configId === "" || digits === undefined) return { configId: runtimeId };
  return { configId, iteration: Number(digits) };
}
