import type { CodonRecord } from "../../journal/index.ts";
import type { ExecutionPlan } from "../../plan/index.ts";

export interface IterationStats {
  readonly durationMs: number;
  readonly costUsd: number;
  readonly tokensUsed: number;
}

/**
 * Runtime ids of one iteration, found by scanning back from the end of the plan: a loop's latest
 * iteration sits at the end of its block, so the scan stops after the loop body instead of walking
 * every iteration that ever ran.
 */
function iterationIds(plan: ExecutionPlan, loopId: string, iteration: number): Set<string> {
  const ids = new Set<string>();
  for (let index = plan.entries.length - 1; index >= 0; index -= 1) {
    const loop = plan.entries[index]?.loop;
    if (loop?.loopId !== loopId) continue;
    if (loop.iteration === iteration) ids.add(plan.entries[index]?.runtimeId ?? "");
    else if (loop.iteration < iteration) break;
  }
  return ids;
}

/** The iteration's last codon, whose `codon.completed` is about to be written with the loop report. */
export interface PendingCompletion {
  readonly codonId: string;
  readonly cost: number;
  readonly duration: number;
}

/** Duration, cost and tokens of one loop iteration, summed over its codons' journal records. */
export function iterationStats(
  plan: ExecutionPlan,
  codonOf: (runtimeId: string) => CodonRecord | undefined,
  loopId: string,
  iteration: number,
  pending?: PendingCompletion,
): IterationStats {
  const ids = iterationIds(plan, loopId, iteration);
  const records: CodonRecord[] = [];
  for (const id of ids) {
    const record = codonOf(id);
    if (record !== undefined) records.push(record);
  }
  const pendingIn = pending !== undefined && ids.has(pending.codonId);
  return {
    durationMs: records.reduce((sum, r) => sum + r.durationMs, 0) + (pendingIn ? pending.duration : 0),
    costUsd: records.reduce((sum, r) => sum + r.cost, 0) + (pendingIn ? pending.cost : 0),
    tokensUsed: records.reduce((sum, r) => sum + r.tokens.input + r.tokens.output, 0),
  };
}
