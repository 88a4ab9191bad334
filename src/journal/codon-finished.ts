import type { CodonRecord, RunState } from "./run-state.ts";

/**
 * Whether a codon execution is behind the run for good: it completed, was skipped, or failed with its
 * failure ignored (`onFailure: "ignore"`). A run that starts again skips such codons; any other status
 * (active, or failed without `ignore`) means the codon runs again, as its next attempt.
 */
export function isCodonFinished(record: CodonRecord): boolean {
  return (
    record.status === "completed" ||
    record.status === "skipped" ||
    (record.status === "failed" && record.failureIgnored)
  );
}

/** The runtime ids of the finished codons of a run state (see `isCodonFinished`). */
export function finishedCodonIds(state: RunState): Set<string> {
  const ids = new Set<string>();
  for (const record of state.codons) if (isCodonFinished(record)) ids.add(record.id);
  return ids;
}
