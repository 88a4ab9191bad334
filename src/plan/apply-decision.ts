import type { AfterCodonDecision } from "./decide-after-codon.ts";
import { dropRestOfIteration } from "./drop-rest-of-iteration.ts";
import type { ExecutionPlan } from "./execution-plan.ts";
import { endLoop, loopStatus } from "./loop-status.ts";
import { nextIteration } from "./next-iteration.ts";

/**
 * The plan after a decision: a new iteration spliced in, or the loop ended (its iteration cut short
 * when `dropRemaining`). Other decisions leave the plan as it is. A decision about an iteration that is
 * not the loop's current one is stale, a bug, and throws.
 */
export function applyDecision(plan: ExecutionPlan, decision: AfterCodonDecision): ExecutionPlan {
  switch (decision.kind) {
    case "continue":
    case "codon-fails":
    case "halt":
      return plan;
    case "next-iteration":
      assertCurrentIteration(plan, decision.loopId, decision.iteration);
      return nextIteration(plan, decision.loopId);
    case "loop-ends": {
      assertCurrentIteration(plan, decision.loopId, decision.iteration);
      const cut = decision.dropRemaining
        ? dropRestOfIteration(plan, decision.loopId, decision.iteration, decision.afterRuntimeId)
        : plan;
      return endLoop(cut, decision.loopId, decision.cause);
    }
  }
}

function assertCurrentIteration(plan: ExecutionPlan, loopId: string, iteration: number): void {
  const current = loopStatus(plan, loopId).iteration;
  if (current !== iteration) {
    throw new Error(`Stale decision: loop "${loopId}" is at iteration ${current}, not ${iteration}`);
  }
}
