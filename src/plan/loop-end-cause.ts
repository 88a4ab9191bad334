/**
 * Why a loop ended. The event layer reports four termination reasons (`loop.iteration.completed`
 * `terminationReason`); budget exhaustion also ends a loop but is deliberately not one of them (spec:
 * "budget is not one of them"), so the plan records the fuller `HankLoopEndCause` and maps it on the way out.
 */
import { LOOP_TERMINATION_REASONS, type LoopTerminationReason } from "../events/payloads-common.ts";

export { LOOP_TERMINATION_REASONS, type LoopTerminationReason };

/**
 * Every cause that ends a loop: the event reasons, `budget` (a loop or hank budget ran out) and `rule`
 * (a caller-supplied stop rule fired; its own cause name is journaled with the loop's last report).
 */
export const LOOP_END_CAUSES = [...LOOP_TERMINATION_REASONS, "budget", "rule"] as const;
export type HankLoopEndCause = (typeof LOOP_END_CAUSES)[number];

/** The `terminationReason` of the final `loop.iteration.completed` event; absent for `budget` and `rule`. */
export function eventTerminationReason(cause: HankLoopEndCause): LoopTerminationReason | undefined {
  return cause === "budget" || cause === "rule" ? undefined : cause;
}
