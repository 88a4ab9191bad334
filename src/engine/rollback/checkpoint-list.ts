import type { CheckpointRecord, CheckpointType } from "../../checkpoint/index.ts";
import { runBranch } from "../../checkpoint/index.ts";
import type { CodonStatus, DataOf } from "../../journal/index.ts";
import type { LineStep } from "./journal-line.ts";

export type CheckpointListData = DataOf<"checkpoint.list">;

/** The codon status a checkpoint type seals: rig-setup is taken while the codon is still preparing. */
const STATUS_OF: Readonly<Record<CheckpointType, CodonStatus>> = {
  "rig-setup": "preparing",
  completed: "completed",
  error: "failed",
  skipped: "skipped",
};

/**
 * The `checkpoint.list` payloads of an execution (reference 1.10), one per run that made checkpoints,
 * in the order the journal started the runs (runs it does not know come last). `currentBranch` is the
 * branch of the run the execution is on (`currentRunOf`), the same in every payload.
 */
export function checkpointLists(
  steps: readonly LineStep[],
  records: readonly CheckpointRecord[],
  currentRunId: string | undefined,
): CheckpointListData[] {
  const order = new Set<string>();
  for (const step of steps) if (step.kind === "run") order.add(step.runId);
  for (const record of records) order.add(record.runId);
  const currentBranch = currentRunId === undefined ? "" : runBranch(currentRunId);
  return [...order]
    .map((runId) => checkpointListData(runId, records, currentBranch))
    .filter((list) => list.checkpoints.length > 0);
}

/** One run's `checkpoint.list` payload, its checkpoints oldest first. */
export function checkpointListData(
  runId: string,
  records: readonly CheckpointRecord[],
  currentBranch: string,
): CheckpointListData {
  return {
    runId,
    checkpoints: records
      .filter((record) => record.runId === runId)
      .map((record) => ({
        codonId: record.codonId,
        codonName: record.codonName,
        checkpointType: record.checkpointType,
        sha: record.sha,
        status: STATUS_OF[record.checkpointType],
        timestamp: record.timestamp,
      })),
    currentBranch,
  };
}
