import { recoverRunPacks } from "../../checkpoint/git/index.ts";
import type { EventDraftOf, EventSink } from "../../engine/index.ts";
import { ActiveCodonStatus } from "../../events/payloads-common.ts";
import { redactSecrets } from "../../hank/validate/index.ts";
import type { CodonRecord, RunState } from "../../journal/index.ts";
import type { ExecutionLayout } from "../../workspace/execution-layout.ts";
import type { StaleLock } from "../../workspace/lock/index.ts";
import { clearStaleGitLocks } from "./clear-stale-git-locks.ts";
import { endLeftoverProcesses } from "./leftover-processes.ts";

/**
 * What a holder of the execution's lock does first, before it touches the journal's line, the
 * checkpoint store or the workspace (a run's start, a rollback). Ends the processes earlier holders
 * left running (see `endLeftoverProcesses`): after a crash (a lock taken over from a dead holder, or a
 * run the journal shows as still running) agents, rig commands, a git repack; after a clean end, what
 * an agent started out of its process group's reach (`setsid`), which a cancel does not signal. This
 * comes before a crashed run is journaled as crashed, so that a kill in between finds them again. Then
 * marks that run (see `markCrashedRun`), removes the git lock files a killed process left in the
 * store, once nothing of it runs, and seals the checkpoints it appended to its run's pack (see
 * `recoverRunPacks`), so that every checkpoint the journal names is readable. Each is said in the journal.
 */
export function recoverCrash(
  sink: EventSink,
  staleLock: StaleLock | undefined,
  layout: Pick<ExecutionLayout, "executionDir" | "checkpointGitDir">,
): void {
  const crashed = staleLock !== undefined || runningRunId(sink.state()) !== undefined;
  endLeftovers(sink, layout.executionDir, crashed ? "the crashed run" : "an earlier run");
  markCrashedRun(sink, staleLock?.runId);
  const staleLocks = clearStaleGitLocks(layout.checkpointGitDir);
  if (staleLocks.length > 0) {
    sink.emit("info", { message: `Removed git lock files left by a crash: ${staleLocks.join(", ")}` });
  }
  const sealed = recoverRunPacks(layout.checkpointGitDir);
  if (sealed.length > 0) {
    sink.emit("info", {
      message: `Sealed the checkpoints a crash left unsealed, of run(s) ${sealed.join(", ")}`,
    });
  }
}

/** The run the journal shows as still running: after a crash, the one that crashed. */
function runningRunId(state: RunState): string | undefined {
  const runId = state.currentRunId ?? undefined;
  const run = state.runs.find((r) => r.id === runId);
  return run?.status === "running" ? runId : undefined;
}

/** Leftover processes named in the journal line (command lines with credentials hidden); the count covers all. */
const LEFTOVERS_NAMED = 5;

function endLeftovers(sink: EventSink, executionDir: string, whose: string): void {
  const ended = endLeftoverProcesses(executionDir);
  if (ended.length === 0) return;
  const named = ended
    .slice(0, LEFTOVERS_NAMED)
    .map((process) => `${process.pid} (${redactSecrets(process.command)})`);
  const list = ended.length > LEFTOVERS_NAMED ? `${named.join(", ")}, …` : named.join(", ");
  sink.emit("info", {
    message: `Ended ${ended.length} process(es) ${whose} left running, so that none writes into the workspace or the checkpoint store once recovery starts: ${list}`,
  });
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
  const runId = runningRunId(state);
  if (runId === undefined) return [];
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
