/**
 * Why a loop ended. The event layer reports four termination reasons (`loop.iteration.completed`
 * `terminationReason`); budget exhaustion also ends a loop but is deliberately not one of them (spec:
 * "budget is not one of them"), so the plan records the fuller `LoopEndCause` and maps it on the way out.
 */
export const LOOP_TERMINATION_REASONS = [
  "iteration_limit",
  "context_exceeded",
  "sentinel_skip",
  "failure",
] as const;
export type LoopTerminationReason = (typeof LOOP_TERMINATION_REASONS)[number];

/** Every cause that ends a loop: the event reasons plus `budget` (a loop or hank budget ran out). */
export const LOOP_END_CAUSES = [...LOOP_TERMINATION_REASONS, "budget"] as const;
export type LoopEndCause = (typeof LOOP_END_CAUSES)[number];

/** The `terminationReason` of the final `loop.iteration.completed` event; absent for `budget`. */
export function eventTerminationReason(cause: LoopEndCause): LoopTerminationReason | undefined {
  return cause === "budget" ? undefined : cause;
}
