import { dropRestOfIteration } from "./drop-rest-of-iteration.ts";
import type { ExecutionPlan } from "./execution-plan.ts";
import type { HankLoopEndCause, LoopTerminationReason } from "./loop-end-cause.ts";
import { endLoop } from "./loop-status.ts";
import { nextIteration } from "./next-iteration.ts";

/** What a `loop.iteration.completed` event says about the plan. */
export interface LoopReport {
  readonly loopId: string;
  readonly iteration: number;
  readonly isFinal: boolean;
  readonly terminationReason?: LoopTerminationReason;
  /** The loop's fuller end cause when it has no termination reason: `budget`, or a caller rule's cause. */
  readonly endCause?: string;
}

/** The loop report a journaled `loop.iteration.completed` payload carries. */
export function loopReportOf(data: {
  readonly loopId: string;
  readonly iteration: number;
  readonly isFinal: boolean;
  readonly terminationReason?: LoopTerminationReason | undefined;
  readonly endCause?: string | undefined;
}): LoopReport {
  return {
    loopId: data.loopId,
    iteration: data.iteration,
    isFinal: data.isFinal,
    ...(data.terminationReason !== undefined && { terminationReason: data.terminationReason }),
    ...(data.endCause !== undefined && { endCause: data.endCause }),
  };
}

/**
 * Brings a saved plan up to date with loop reports journaled after it was saved (a crash between the
 * journal write and the snapshot). Pure and idempotent: reports the plan already reflects are skipped.
 * A final report without a reason is a budget stop (budget is never an event termination reason), or a
 * caller rule's stop when its `endCause` names another cause.
 */
export function replayLoopReports(
  plan: ExecutionPlan,
  reports: readonly LoopReport[],
  finished: ReadonlySet<string>,
): ExecutionPlan {
  let current = plan;
  for (const report of reports) {
    const status = current.loops[report.loopId];
    if (status === undefined || status.terminated || report.iteration !== status.iteration) continue;
    if (!report.isFinal) {
      current = nextIteration(current, report.loopId);
      continue;
    }
    const ran = current.entries.filter(
      (e) =>
        e.loop?.loopId === report.loopId &&
        e.loop.iteration === report.iteration &&
        finished.has(e.runtimeId),
    );
    const lastRan = ran[ran.length - 1];
    if (lastRan !== undefined)
      current = dropRestOfIteration(current, report.loopId, report.iteration, lastRan.runtimeId);
    const cause: HankLoopEndCause =
      report.terminationReason ??
      (report.endCause === undefined || report.endCause === "budget" ? "budget" : "rule");
    current = endLoop(current, report.loopId, cause);
  }
  return current;
}
