import type { CodonRecord } from "./run-state.ts";

/**
 * How many codons of a run ended which way: the one definition every face prints (the headless
 * summary, the TUI's box, the web page, `--json`). Counted over the codon records of the run's current
 * line, one per runtime id, by the latest attempt: a codon that failed once and then completed on a
 * retry or a resume counts as completed, never as failed too.
 */
export interface RunCounts {
  /** Codon records (runtime ids) the run has seen, active ones included. */
  readonly total: number;
  readonly completed: number;
  /** Failed on their own account, failure not ignored: what makes a run fail. */
  readonly failed: number;
  /** Failed with `onFailure: "ignore"`: the run went on. */
  readonly ignored: number;
  /** Stopped by a delivered cancel (Ctrl-C, a stop command, a budget stop): runs again on a resume. */
  readonly stopped: number;
  /** Cut short by a runtime that died (journaled by the next start's recovery): runs again. */
  readonly interrupted: number;
  readonly skipped: number;
  /** Completed without starting: the run's ceiling was spent before them; a later start runs them. */
  readonly notStarted: number;
  /** Not ended yet: preparing, running, completing sentinels. */
  readonly active: number;
}

export type CodonEnding = Exclude<keyof RunCounts, "total">;

/** Which count a codon record falls in. */
export function codonEnding(record: CodonRecord): CodonEnding {
  switch (record.status) {
    case "completed":
      return record.notStarted === null ? "completed" : "notStarted";
    case "skipped":
      return "skipped";
    case "failed":
      if (record.failureIgnored) return "ignored";
      if (record.endReasons?.codon === "aborted") return "stopped";
      if (record.endReasons?.codon === "interrupted") return "interrupted";
      return "failed";
    default:
      return "active";
  }
}

export function countCodons(records: readonly CodonRecord[]): RunCounts {
  const counts = {
    total: records.length,
    completed: 0,
    failed: 0,
    ignored: 0,
    stopped: 0,
    interrupted: 0,
    skipped: 0,
    notStarted: 0,
    active: 0,
  };
  for (const record of records) counts[codonEnding(record)] += 1;
  return counts;
}
