import type { CheckpointRecord, GlobSet } from "../../checkpoint/index.ts";
import type { ArchivedEntry } from "./rollback-types.ts";

export interface ArchiveSelectionInput {
  readonly entries: readonly ArchivedEntry[];
  /** The checkpoint rolled back to. */
  readonly target: CheckpointRecord;
  /** The checkpoint that followed the target on the target's own run, if any. */
  readonly nextOnRun: CheckpointRecord | undefined;
  /** The checkpoint selection (union of the hank's `checkpointedFiles`). */
  readonly selection: GlobSet;
}

/**
 * Which archived files a rollback puts back (reference 1.14: those archived after the target). Three
 * rules, in order:
 * 1. Only entries archived strictly after the target checkpoint's time: earlier archives were already
 *    gone at the target.
 * 2. Paths in the checkpoint selection stay archived: the checkpoint decides them (restored from it
 *    when the target had them, absent when it did not), so the archive copy must not overwrite or
 *    resurrect them.
 * 3. For a `completed` target, the archives made at that codon's boundary (same run, before the run's
 *    next checkpoint: the codon's `archiveOnSuccess`, a loop's archive when it ended there) stay
 *    archived: the codons that run next ran without those files the first time.
 */
export function archivesToRestore(input: ArchiveSelectionInput): ArchivedEntry[] {
  const after = Date.parse(input.target.timestamp);
  const nextAt =
    input.nextOnRun === undefined ? Number.POSITIVE_INFINITY : Date.parse(input.nextOnRun.timestamp);
  const boundary = (entry: ArchivedEntry, at: number): boolean =>
    input.target.checkpointType === "completed" && entry.runId === input.target.runId && at <= nextAt;
  return input.entries.filter((entry) => {
    const at = Date.parse(entry.archivedAt);
    if (Number.isNaN(at) || at <= after) return false;
    if (input.selection.matches(entry.from)) return false;
    return !boundary(entry, at);
  });
}
