import type { CodonFinish, PlannedCodon } from "../../plan/index.ts";
import type { AsyncStopRule } from "../../util/stop-rule.ts";
import type { CodonResult } from "../codon/codon-result.ts";

/** What a caller's loop stop rule sees after a codon of a loop finished. */
export interface LoopStopContext {
  readonly loopId: string;
  /** 0-based iteration of the loop. */
  readonly iteration: number;
  /** The codon's runtime id (`review#2`) and its config id (`review`). */
  readonly runtimeId: string;
  readonly codonId: string;
  /** The codon is the last of its iteration. */
  readonly isLastInIteration: boolean;
  /** How the codon finished, as the built-in rules saw it. */
  readonly finish: CodonFinish;
  /** Its final text, files changed and usage; absent when the agent never ran (a skip). */
  readonly result: CodonResult | undefined;
  /** Aborts when the run is cancelled: a rule running a test command should stop it. */
  readonly signal: AbortSignal;
}

/**
 * A rule's verdict when it fires: the loop ends with the rule's own cause (`tests-pass`, recorded in
 * the journal as the loop's end cause). `dropRemaining` removes the rest of the iteration when the
 * codon is not its last (default true: the loop is over, its remaining codons have no purpose).
 */
export interface LoopStopVerdict {
  readonly cause: string;
  readonly message?: string;
  readonly dropRemaining?: boolean;
}

/**
 * A caller-supplied loop stop rule: async, composable, tried in order after the built-in rules (budget,
 * context, failure, iteration limit), which keep their order and precedence. It may read anything
 * outside the run (run the tests, ask a judge). It is asked only after a codon that lets its iteration
 * carry on (completed, skipped, failed and ignored); a rule that throws fails the run with its message.
 */
export type LoopStopPredicate = AsyncStopRule<LoopStopContext, LoopStopVerdict>;

/** The context a rule sees for a loop entry. */
export function loopStopContext(
  entry: PlannedCodon,
  finish: CodonFinish,
  result: CodonResult | undefined,
  signal: AbortSignal,
): LoopStopContext | undefined {
  const placement = entry.loop;
  if (placement === undefined) return undefined;
  return {
    loopId: placement.loopId,
    iteration: placement.iteration,
    runtimeId: entry.runtimeId,
    codonId: entry.configId,
    isLastInIteration: placement.isLast,
    finish,
    result,
    signal,
  };
}
