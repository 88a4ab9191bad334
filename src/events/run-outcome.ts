/**
 * How a run ended: one vocabulary for the engine, the journal's run records, the CLI's exit code and
 * the daemon. `aborted` is a delivered cancel or stop; `interrupted` is written only by crash recovery,
 * for a run whose process died; the two are never confused.
 */
export const RUN_OUTCOMES = ["completed", "failed", "aborted", "interrupted"] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/** A run record's status: running, or how it ended. */
export const RUN_STATUSES = ["running", ...RUN_OUTCOMES] as const;
export type RunStatusValue = (typeof RUN_STATUSES)[number];

/**
 * The process exit code of a run that ended so: 0 when it completed or was stopped by its user (a
 * delivered Ctrl-C or stop is not a failure, as the reference runtime exits), 1 otherwise.
 */
export function exitCodeOf(outcome: RunOutcome): 0 | 1 {
  return outcome === "completed" || outcome === "aborted" ? 0 : 1;
}
