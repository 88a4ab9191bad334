import type { ExecutionPlan } from "./execution-plan.ts";

/**
 * Removes the codons of a loop iteration that come after `afterRuntimeId` (the codon at which context
 * or budget ran out). The codon itself and everything outside the iteration stay. Does not change the
 * loop's status: pair it with `endLoop`, as `applyDecision` does.
 */
export function dropRestOfIteration(
  plan: ExecutionPlan,
  loopId: string,
  iteration: number,
  afterRuntimeId: string,
): ExecutionPlan {
  const at = plan.entries.findIndex((entry) => entry.runtimeId === afterRuntimeId);
  const placement = plan.entries[at]?.loop;
  if (placement?.loopId !== loopId || placement.iteration !== iteration) {
    throw new Error(`"${afterRuntimeId}" is not in loop "${loopId}" iteration ${iteration}`);
  }
  const entries = plan.entries.filter(
    (entry, index) => index <= at || entry.loop?.loopId !== loopId || entry.loop.iteration !== iteration,
  );
  return { ...plan, entries };
}
