import type { Codon, HankFile, Loop, TerminateOn } from "../hank/schema/index.ts";
import type { PlannedCodon } from "./execution-plan.ts";

/** The loop a planned loop codon belongs to, or undefined when the hank does not match the entry. */
export function loopOf(hank: HankFile, entry: PlannedCodon): Loop | undefined {
  if (entry.loop === undefined) return undefined;
  const item = hank.hank[entry.topIndex];
  return item?.type === "loop" && item.id === entry.loop.loopId ? item : undefined;
}

/**
 * The codon config of a planned entry, read from the hank by position. Undefined when the hank no
 * longer matches the plan (a hank edited between a run and its resume): the caller reports that.
 */
export function resolveCodon(hank: HankFile, entry: PlannedCodon): Codon | undefined {
  const item = hank.hank[entry.topIndex];
  const codon = entry.loop === undefined ? item : loopOf(hank, entry)?.codons[entry.loop.position];
  return codon !== undefined && codon.type !== "loop" && codon.id === entry.configId ? codon : undefined;
}

/** The stop condition of a loop codon's loop, for `decideAfterCodon`. */
export function terminateOnOf(hank: HankFile, entry: PlannedCodon): TerminateOn | undefined {
  return loopOf(hank, entry)?.terminateOn;
}

/** Entries of a persisted plan that the hank no longer backs; empty when the plan can resume on it. */
export function unresolvedEntries(hank: HankFile, entries: readonly PlannedCodon[]): PlannedCodon[] {
  return entries.filter((entry) => resolveCodon(hank, entry) === undefined);
}
