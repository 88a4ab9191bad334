import type { Checkpointer, RestoreReport } from "../checkpoint/index.ts";
import type { EventSink, HookResult } from "../engine/index.ts";
import { LINE_BASE_TRANSITION } from "../engine/rollback/index.ts";

export interface LineStartInput {
  readonly checkpointer: Checkpointer;
  readonly sink: EventSink;
  readonly runId: string;
  /**
   * A restart after a crash or a cancel: the checkpoint the interrupted codon started from. The
   * workspace's checkpoint selection is put back to it and the run's line starts there, so the
   * checkpoints the interrupted attempt made are off the line.
   */
  readonly restartFrom?: string;
  /** The checkpoint selection (every `checkpointedFiles` glob of the hank). */
  readonly globs: readonly string[];
}

/**
 * Starts the run's line of checkpoints and journals where it starts (`InitialCheckpointSet`, with the
 * files put back on a restart), so the execution's thread can be rebuilt from the journal alone. Files
 * outside the checkpoint selection are never touched. A failure fails the run before any codon.
 */
export async function startCheckpointLine(input: LineStartInput): Promise<HookResult> {
  const { checkpointer, restartFrom } = input;
  try {
    await checkpointer.init();
    const report =
      restartFrom === undefined ? undefined : await checkpointer.restore(restartFrom, { globs: input.globs });
    const started = await checkpointer.startRun(input.runId, restartFrom);
    journalLineStart(input, started.baseSha, report);
    return { ok: true };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `Checkpoints could not start: ${why}` };
  }
}

function journalLineStart(input: LineStartInput, baseSha: string, report: RestoreReport | undefined): void {
  const { sink } = input;
  if (report !== undefined) {
    const changed = report.restored.length + report.removed.length;
    sink.emit("info", {
      message: `Restarting from checkpoint ${baseSha.slice(0, 7)}: ${changed === 0 ? "the workspace already matched it" : `${report.restored.length} file(s) restored, ${report.removed.length} removed`}`,
    });
  }
  const state = sink.state();
  sink.emit("state.transition", {
    transitionType: LINE_BASE_TRANSITION,
    runId: input.runId,
    transition: {
      type: LINE_BASE_TRANSITION,
      data: {
        checkpoint: baseSha,
        ...(report !== undefined && {
          restart: { restored: report.restored.length, removed: report.removed.length },
        }),
      },
    },
    resultingState: {
      currentRunId: state.currentRunId,
      runCount: state.runs.length,
      totalCost: state.totals.cost,
      currentRunCost: 0,
    },
  });
}
