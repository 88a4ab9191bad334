import type { CodonRecord, RunState } from "../journal/index.ts";
import type { ExecutionPlan } from "../plan/index.ts";

export interface IterationStats {
  readonly durationMs: number;
  readonly costUsd: number;
  readonly tokensUsed: number;
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
  state: RunState,
  loopId: string,
  iteration: number,
  pending?: PendingCompletion,
): IterationStats {
  const ids = new Set(
    plan.entries
      .filter((e) => e.loop?.loopId === loopId && e.loop.iteration === iteration)
      .map((e) => e.runtimeId),
  );
  const records: CodonRecord[] = state.codons.filter((record) => ids.has(record.id));
  const pendingIn = pending !== undefined && ids.has(pending.codonId);
  return {
    durationMs: records.reduce((sum, r) => sum + r.durationMs, 0) + (pendingIn ? pending.duration : 0),
    costUsd: records.reduce((sum, r) => sum + r.cost, 0) + (pendingIn ? pending.cost : 0),
    tokensUsed: records.reduce((sum, r) => sum + r.tokens.input + r.tokens.output, 0),
  };
}
