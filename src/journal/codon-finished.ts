import type { CodonRecord, RunState } from "./run-state.ts";

/**
 * Whether a codon execution is behind the run for good: it completed, was skipped, or failed with its
 * failure ignored (`onFailure: "ignore"`). A run that starts again skips such codons; any other status
 * (active, or failed without `ignore`) means the codon runs again, as its next attempt.
 */
export function isCodonFinished(record: CodonRecord): boolean {
  return (
    (record.status === "completed" && record.notStarted === null) ||
    record.status === "skipped" ||
    (record.status === "failed" && record.failureIgnored)
  );
}

/**
 * Whether a codon's latest attempt was stopped mid-way rather than ended by the codon itself: a
 * delivered cancel (`aborted`) or a runtime that died (`interrupted`). Such a codon did not fail; it
 * runs again, on the files it started from.
 */
export function wasCutShort(record: CodonRecord): boolean {
  const reason = record.endReasons?.codon;
  return reason === "aborted" || reason === "interrupted";
}

/** The runtime ids of the finished codons of a run state (see `isCodonFinished`). */
export function finishedCodonIds(state: RunState): Set<string> {
  const ids = new Set<string>();
  for (const record of state.codons) if (isCodonFinished(record)) ids.add(record.id);
  return ids;
}
