import type { TerminateOn } from "../hank/schema/index.ts";
import { firstVerdict } from "../util/stop-rule.ts";
import type { LoopPlacement, PlannedCodon } from "./execution-plan.ts";
import type { HankLoopEndCause, LoopTerminationReason } from "./loop-end-cause.ts";
import { eventTerminationReason } from "./loop-end-cause.ts";
import type { CodonFinish, LoopStop, LoopStopRule } from "./stop-rules.ts";
import { LOOP_STOP_RULES } from "./stop-rules.ts";

/** A planned codon that just finished. `terminateOn` is its loop's, required for loop codons. */
export interface FinishedCodon {
  readonly entry: PlannedCodon;
  readonly finish: CodonFinish;
  readonly terminateOn?: TerminateOn | undefined;
}

/**
 * What the plan does after a codon finished.
 * - `continue`: run the next planned codon.
 * - `next-iteration`: iteration `iteration` of the loop ended; splice in iteration `next`.
 *   The driver reports the ended iteration with `isFinal: false`.
 * - `loop-ends`: the loop ends in iteration `iteration` at `afterRuntimeId` (`isFinal: true`,
 *   `terminationReason` absent for budget). With `dropRemaining`, the rest of the iteration is removed.
 *   `runContinues` is false only for `failure`: the run stops after recording the loop's end.
 * - `codon-fails`: the finish is a codon failure (context exhaustion outside a `contextExceeded`
 *   loop). The driver applies the codon's `onFailure` and asks again with `failed` or `failed-ignored`.
 * - `halt`: a codon outside any loop failed for good; nothing more runs in this run.
 */
export type AfterCodonDecision =
  | { readonly kind: "continue"; readonly runtimeId: string }
  | {
      readonly kind: "next-iteration";
      readonly loopId: string;
      readonly iteration: number;
      readonly next: number;
    }
  | {
      readonly kind: "loop-ends";
      readonly loopId: string;
      readonly iteration: number;
      readonly afterRuntimeId: string;
      readonly cause: HankLoopEndCause;
      readonly terminationReason?: LoopTerminationReason;
      /** For cause `rule`: the caller rule's own cause name. */
      readonly ruleCause?: string;
      readonly dropRemaining: boolean;
      readonly runContinues: boolean;
    }
  | {
      readonly kind: "codon-fails";
      readonly runtimeId: string;
      readonly reason: "context-exceeded";
      readonly message: string;
    }
  | { readonly kind: "halt"; readonly runtimeId: string };

function contextFailure(runtimeId: string): AfterCodonDecision {
  return {
    kind: "codon-fails",
    runtimeId,
    reason: "context-exceeded",
    message: `Codon "${runtimeId}" exhausted its context; only a contextExceeded loop ends on context exhaustion`,
  };
}

function decideOutsideLoop(entry: PlannedCodon, finish: CodonFinish): AfterCodonDecision {
  if (finish.kind === "context-exceeded") return contextFailure(entry.runtimeId);
  if (finish.kind === "failed") return { kind: "halt", runtimeId: entry.runtimeId };
  return { kind: "continue", runtimeId: entry.runtimeId };
}

/** Builds the loop-ends decision for a stop at `runtimeId`; nothing is dropped after the last codon. */
export function loopEnds(runtimeId: string, placement: LoopPlacement, stop: LoopStop): AfterCodonDecision {
  const reason = eventTerminationReason(stop.cause);
  return {
    kind: "loop-ends",
    loopId: placement.loopId,
    iteration: placement.iteration,
    afterRuntimeId: runtimeId,
    cause: stop.cause,
    ...(reason === undefined ? {} : { terminationReason: reason }),
    ...(stop.ruleCause !== undefined && { ruleCause: stop.ruleCause }),
    dropRemaining: stop.dropRemaining && !placement.isLast,
    runContinues: stop.cause !== "failure",
  };
}

/**
 * Decides what follows a finished codon. Inside a loop the stop rules run first, in order (default:
 * budget at any codon, context at any codon of a `contextExceeded` loop, failure, then the iteration
 * limit at the iteration's last codon). If none fires, context exhaustion is a codon failure, a final
 * failure halts the run, the last codon of an iteration expands the next one, and anything else
 * continues. Calling it for a loop codon without `terminateOn` is a bug and throws.
 */
export function decideAfterCodon(
  input: FinishedCodon,
  rules: readonly LoopStopRule[] = LOOP_STOP_RULES,
): AfterCodonDecision {
  const { entry, finish, terminateOn } = input;
  const placement = entry.loop;
  if (placement === undefined) return decideOutsideLoop(entry, finish);
  if (terminateOn === undefined) {
    throw new Error(`Loop codon "${entry.runtimeId}" needs its loop's terminateOn`);
  }
  const stop = firstVerdict(rules, { placement, finish, terminateOn });
  if (stop !== undefined) return loopEnds(entry.runtimeId, placement, stop);
  if (finish.kind === "context-exceeded") return contextFailure(entry.runtimeId);
  if (finish.kind === "failed") return { kind: "halt", runtimeId: entry.runtimeId };
  if (placement.isLast) {
    return {
      kind: "next-iteration",
      loopId: placement.loopId,
      iteration: placement.iteration,
      next: placement.iteration + 1,
    };
  }
  return { kind: "continue", runtimeId: entry.runtimeId };
}
