import type { ExecutionPlan, PlannedCodon } from "./execution-plan.ts";

/** Runtime ids of codons that are done: completed, skipped, or failed and ignored. */
export type FinishedIds = ReadonlySet<string> | readonly string[];

function toSet(ids: FinishedIds): ReadonlySet<string> {
  return ids instanceof Set ? ids : new Set(ids);
}

export function findEntry(plan: ExecutionPlan, runtimeId: string): PlannedCodon | undefined {
  return plan.entries.find((entry) => entry.runtimeId === runtimeId);
}

/**
 * The codon to run next: the first planned codon, in plan order, that is not finished. Apply the
 * decision about the last finished codon first, or the codon after a loop comes up before the loop's
 * next iteration has been spliced in.
 */
export function nextCodon(plan: ExecutionPlan, finished: FinishedIds): PlannedCodon | undefined {
  const done = toSet(finished);
  return plan.entries.find((entry) => !done.has(entry.runtimeId));
}

/**
 * The planned codon before `runtimeId`, whose session `continue-previous` resumes. The plan holds only
 * iterations that ran and loses the codons a loop dropped, so across a loop boundary this is the codon
 * the loop's last iteration ended on. Undefined for the first codon; an unknown id throws.
 */
export function findPrevious(plan: ExecutionPlan, runtimeId: string): PlannedCodon | undefined {
  const index = plan.entries.findIndex((entry) => entry.runtimeId === runtimeId);
  if (index < 0) throw new Error(`"${runtimeId}" is not in the execution plan`);
  return plan.entries[index - 1];
}

/** Loops that have not terminated yet. */
export function openLoops(plan: ExecutionPlan): string[] {
  return Object.entries(plan.loops)
    .filter(([, status]) => !status.terminated)
    .map(([loopId]) => loopId);
}

/** Every planned codon is finished and every loop has terminated: the hank is done. */
export function isPlanFinished(plan: ExecutionPlan, finished: FinishedIds): boolean {
  return nextCodon(plan, finished) === undefined && openLoops(plan).length === 0;
}
