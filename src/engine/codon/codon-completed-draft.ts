import type { FailureReason } from "../../harness/failure-reason.ts";
import type { DataOf } from "../../journal/index.ts";
import type { EventDraftOf } from "../run/event-sink.ts";
import type { AttemptEnd } from "./attempt-end.ts";
import { resultTextOf } from "./codon-result.ts";

/** How the engine records an attempt's end in the journal. */
export interface CompletedRecord {
  readonly runtimeId: string;
  readonly attempt: number;
  readonly end: AttemptEnd;
  /** Why the attempt failed; undefined for a success. */
  readonly reason: FailureReason | undefined;
  /** The failure was ignored (`onFailure: "ignore"`): the run goes on past it. */
  readonly ignored?: boolean;
}

/**
 * The attempt's one `codon.completed`. A successful attempt in which the agent said something carries
 * its final text (`result`, bounded); a failed one carries its reason instead.
 */
export function codonCompletedDraft(record: CompletedRecord): EventDraftOf {
  const { end, reason } = record;
  const success = end.kind === "success";
  const data: DataOf<"codon.completed"> = {
    codonId: record.runtimeId,
    success,
    cost: end.costUsd,
    duration: end.durationMs,
    exitStatus: end.exitStatus,
    ...(reason !== undefined && { failureReason: reason }),
    ...(record.ignored === true && { failureIgnored: true }),
    ...(end.budgetExceeded !== undefined && {
      budgetExceeded: {
        currency: end.budgetExceeded.currency,
        limit: end.budgetExceeded.limit,
        used: end.budgetExceeded.used,
      },
    }),
    endReasons: end.endReasons,
    attempt: record.attempt,
    ...(end.kind !== "success" && { failedDuring: end.failedDuring }),
    ...(success && end.result !== undefined && end.result.chars > 0 && { result: resultTextOf(end.result) }),
  };
  return { type: "codon.completed", data };
}
