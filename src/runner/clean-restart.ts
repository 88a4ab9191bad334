import type { Checkpointer } from "../checkpoint/index.ts";
import type { EventSink } from "../engine/index.ts";
import { isFinishedCodon, readJournalLine, restartPoint } from "../engine/rollback/index.ts";
import { type RunState, wasCutShort } from "../journal/index.ts";

/**
 * Whether this start must put the workspace back to the last finished codon's checkpoint before it
 * runs anything: the latest run died (`interrupted`: what it left on disk is unknown) or failed (the
 * spec's rollback to the last success on the start after a failed execution: the failed codon runs
 * again on the files it started from, not on its failed attempt's writes), or an attempt a delivered
 * cancel stopped mid-codon is still the codon's latest (`aborted`). A run stopped at a codon boundary
 * leaves the workspace as it was.
 */
export function needsCleanRestart(state: RunState): boolean {
  const latest = state.runs[state.runs.length - 1]?.status;
  if (latest === "interrupted" || latest === "failed") return true;
  return state.codons.some((codon) => codon.status === "failed" && wasCutShort(codon));
}

/**
 * The checkpoint the next run starts from: the one the interrupted codon started from (see
 * `restartPoint`), or undefined (with a warning journaled) when there is no safe one and the codon
 * re-runs on the workspace as it is: among others when a finished codon's end could not be checkpointed
 * (walking back would undo its files, and it does not run again). A checkpoint store that cannot be
 * read is a warning too.
 */
export async function cleanRestartCheckpoint(
  sink: EventSink,
  checkpointer: Checkpointer,
  journalPath: string,
): Promise<string | undefined> {
  try {
    await checkpointer.init();
    const [line, records] = await Promise.all([readJournalLine(journalPath), checkpointer.list()]);
    if (line.unsavedEnds.length > 0) {
      warn(sink, unsavedMessage(line.unsavedEnds));
      return undefined;
    }
    const point = restartPoint(line.steps, records, (id) => isFinishedCodon(sink.codon(id)));
    if (point.kind === "checkpoint") return point.sha;
    warn(sink, point.message);
  } catch (error) {
    warn(
      sink,
      `the checkpoints could not be read (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  return undefined;
}

/** Why no checkpoint is safe: walking back would undo these finished codons, which will not run again. */
function unsavedMessage(codonIds: readonly string[]): string {
  const list = codonIds.join(", ");
  return codonIds.length === 1
    ? `codon ${list} finished but its end was never checkpointed, so its files are kept`
    : `codons ${list} finished but their ends were never checkpointed, so their files are kept`;
}

function warn(sink: EventSink, why: string): void {
  sink.emit("error", {
    message: `The workspace cannot be put back to where the interrupted codon started: ${why}. It runs again on the files as they are.`,
    fatal: false,
    severity: "warning",
  });
}
