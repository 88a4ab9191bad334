import type { HankLoopEndCause, LoopTerminationReason } from "./loop-end-cause.ts";

/** Version of the persisted plan format (`state.json` `executionPlan`). */
export const PLAN_VERSION = 1;

/** Where a planned codon sits inside its loop. */
export interface LoopPlacement {
  readonly loopId: string;
  /** 0-based iteration. */
  readonly iteration: number;
  /** 0-based index of the codon in the loop's `codons` array. */
  readonly position: number;
  /** The codon is the last of the loop body, where the iteration ends when nothing stopped it earlier. */
  readonly isLast: boolean;
}

/**
 * One planned codon execution. The codon config is not copied into the plan: `topIndex` (and
 * `loop.position` inside a loop) locate it in the hank, and `resolveCodon` reads it back, checking
 * `configId`. This keeps the persisted plan a few dozen bytes per entry however long a loop runs.
 */
export interface PlannedCodon {
  /** `configId` outside loops, `<configId>#<iteration>` inside. Unique within a plan. */
  readonly runtimeId: string;
  /** The codon's `id` in the hank file. */
  readonly configId: string;
  /** Index of the codon, or of its enclosing loop, in the hank's `hank` array. */
  readonly topIndex: number;
  readonly loop?: LoopPlacement;
}

/** Where a loop stands. Loops not reached yet are at iteration 0, not terminated. */
export interface LoopStatus {
  /** The latest iteration placed in the plan. */
  readonly iteration: number;
  readonly terminated: boolean;
  /** Why the loop ended, budget included; set with `terminated`. */
  readonly endCause?: HankLoopEndCause;
  /** `eventTerminationReason(endCause)`, kept for readers of `state.json`; absent for budget. */
  readonly terminationReason?: LoopTerminationReason;
}

/**
 * The execution plan: every codon execution that has entered the plan, in run order, plus the status
 * of every loop. Loops are expanded lazily, so the plan holds only iterations that have started or are
 * about to. Plain JSON data: persisted as is and read back with `parseExecutionPlan`.
 */
export interface ExecutionPlan {
  readonly version: typeof PLAN_VERSION;
  readonly entries: readonly PlannedCodon[];
  readonly loops: Readonly<Record<string, LoopStatus>>;
}
