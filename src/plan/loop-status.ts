import type { ExecutionPlan, LoopStatus } from "./execution-plan.ts";
import type { HankLoopEndCause } from "./loop-end-cause.ts";
import { eventTerminationReason } from "./loop-end-cause.ts";

/** The status of a loop in the plan. An unknown loop id is a bug in the caller and throws. */
export function loopStatus(plan: ExecutionPlan, loopId: string): LoopStatus {
  const status = Object.hasOwn(plan.loops, loopId) ? plan.loops[loopId] : undefined;
  if (status === undefined) throw new Error(`Loop "${loopId}" is not in the execution plan`);
  return status;
}

export function withLoopStatus(plan: ExecutionPlan, loopId: string, status: LoopStatus): ExecutionPlan {
  return { ...plan, loops: { ...plan.loops, [loopId]: status } };
}

/** Marks a loop terminated. Ending a loop twice is a bug and throws. */
export function endLoop(plan: ExecutionPlan, loopId: string, cause: HankLoopEndCause): ExecutionPlan {
  const status = loopStatus(plan, loopId);
  if (status.terminated) throw new Error(`Loop "${loopId}" has already terminated`);
  const reason = eventTerminationReason(cause);
  const ended: LoopStatus =
    reason === undefined
      ? { iteration: status.iteration, terminated: true, endCause: cause }
      : { iteration: status.iteration, terminated: true, endCause: cause, terminationReason: reason };
  return withLoopStatus(plan, loopId, ended);
}

/**
 * Reopens a loop that ended with `failure`, for a continuation run that retries the failed codon
 * (the failed iteration's remaining codons were kept in the plan for exactly this), or with `budget` at
 * a codon a spent run ceiling did not start (kept likewise; the caller checks that it was so). Other
 * causes are final: reopening them is a bug and throws.
 */
export function reopenLoop(plan: ExecutionPlan, loopId: string): ExecutionPlan {
  const status = loopStatus(plan, loopId);
  if (!status.terminated || (status.endCause !== "failure" && status.endCause !== "budget")) {
    throw new Error(`Loop "${loopId}" cannot be reopened: it did not end with a failure or a spent ceiling`);
  }
  return withLoopStatus(plan, loopId, { iteration: status.iteration, terminated: false });
}
