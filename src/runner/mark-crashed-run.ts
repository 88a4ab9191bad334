import type { EventSink } from "../engine/index.ts";

/**
 * Crash recovery: a run the journal still shows as running belongs to a process that died (its lock was
 * stale or gone). It is marked `crashed`, and the reducer marks its in-flight codon `interrupted`;
 * never `aborted`, which only a delivered cancel may write.
 */
export function markCrashedRun(sink: EventSink, staleRunId: string | undefined): void {
  const state = sink.state();
  const runId = state.currentRunId ?? undefined;
  if (runId === undefined) return;
  const run = state.runs.find((r) => r.id === runId);
  if (run === undefined || run.status !== "running") return;
  sink.emit("state.transition", {
    transitionType: "RunCrashed",
    runId,
    transition: {
      type: "RunCrashed",
      data: { detectedBy: staleRunId === undefined ? "journal" : "stale-lock" },
    },
    resultingState: {
      currentRunId: null,
      runCount: state.runs.length,
      totalCost: state.totals.cost,
      currentRunCost: 0,
    },
  });
}
