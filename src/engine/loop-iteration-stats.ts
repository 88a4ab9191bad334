import type { CodonRecord, RunState } from "../journal/index.ts";
import type { ExecutionPlan } from "../plan/index.ts";

export interface IterationStats {
  readonly durationMs: number;
  readonly costUsd: number;
  readonly tokensUsed: number;
}

/** Duration, cost and tokens of one loop iteration, summed over its codons' journal records. */
export function iterationStats(
  plan: ExecutionPlan,
  state: RunState,
  loopId: string,
  iteration: number,
): IterationStats {
  const ids = new Set(
    plan.entries
      .filter((e) => e.loop?.loopId === loopId && e.loop.iteration === iteration)
      .map((e) => e.runtimeId),
  );
  const records: CodonRecord[] = state.codons.filter((record) => ids.has(record.id));
  return {
    durationMs: records.reduce((sum, r) => sum + r.durationMs, 0),
    costUsd: records.reduce((sum, r) => sum + r.cost, 0),
    tokensUsed: records.reduce((sum, r) => sum + r.tokens.input + r.tokens.output, 0),
  };
}
