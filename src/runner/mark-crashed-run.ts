import type { EventDraftOf, EventSink } from "../engine/index.ts";
import { ActiveCodonStatus } from "../events/payloads-common.ts";
import type { CodonRecord } from "../journal/index.ts";
import { clearStaleGitLocks } from "./clear-stale-git-locks.ts";

/**
 * What a holder of the execution's lock does first, before it touches the journal's line or the
 * checkpoint store (a run's start, a rollback): marks a run the journal still shows as running (see
 * `markCrashedRun`) and removes the git lock files a killed process left in the store, saying so.
 */
export function recoverCrash(
  sink: EventSink,
  staleRunId: string | undefined,
  checkpointGitDir: string,
): void {
  markCrashedRun(sink, staleRunId);
  const staleLocks = clearStaleGitLocks(checkpointGitDir);
  if (staleLocks.length > 0) {
    sink.emit("info", { message: `Removed git lock files left by a crash: ${staleLocks.join(", ")}` });
  }
}

/**
 * Crash recovery: a run the journal still shows as running belongs to a process that died (its lock was
 * stale or gone). Each attempt it left in flight is journaled as ended `interrupted` (a `codon.completed`
 * with every end reason `interrupted`, so it stays visible in the journal and the state after the
 * resume), then the run is marked `crashed`, in one journal write. Never `aborted`, which only a
 * delivered cancel may write. Returns the ids of the interrupted codons.
 */
export function markCrashedRun(sink: EventSink, staleRunId: string | undefined): string[] {
  const state = sink.state();
  const runId = state.currentRunId ?? undefined;
  if (runId === undefined) return [];
  const run = state.runs.find((r) => r.id === runId);
  if (run === undefined || run.status !== "running") return [];
  const inFlight = state.codons.flatMap((codon) => {
    const during = ActiveCodonStatus.safeParse(codon.status);
    return during.success ? [{ codon, during: during.data }] : [];
  });
  sink.emitAll([
    ...inFlight.map(({ codon, during }) => interruptedAttempt(codon, during)),
    {
      type: "state.transition",
      data: {
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
      },
    },
  ]);
  return inFlight.map(({ codon }) => codon.id);
}

/**
 * The end of an attempt the crash cut short. What it spent so far becomes its cost; its duration and
 * how its agent process ended died with the runtime, so they are recorded as 0 and `none`.
 */
function interruptedAttempt(codon: CodonRecord, during: ActiveCodonStatus): EventDraftOf {
  return {
    type: "codon.completed",
    data: {
      codonId: codon.id,
      success: false,
      cost: codon.runningCost,
      duration: 0,
      exitStatus: { type: "none" },
      endReasons: {
        stream: "interrupted",
        toolBatch: "interrupted",
        turn: "interrupted",
        codon: "interrupted",
      },
      attempt: codon.attempts + 1,
      failedDuring: during,
    },
  };
}
