import type { Checkpointer } from "../../checkpoint/index.ts";
import type { EventSink } from "../../engine/index.ts";
import { isFinishedCodon, readJournalLine, restartPoint } from "../../engine/rollback/index.ts";
import { type RunState, wasCutShort } from "../../journal/index.ts";
import { shellCommand } from "../../util/shell-quote.ts";
import { CONFIRM_TIMEOUT_MS } from "../../workspace/execution/index.ts";

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

/** Where the restart puts the workspace back, or why the start is refused. */
export type CleanRestart =
  | { readonly kind: "checkpoint"; readonly sha: string }
  | { readonly kind: "as-is" }
  | { readonly kind: "refused"; readonly message: string };

export interface CleanRestartInput {
  readonly sink: EventSink;
  readonly checkpointer: Checkpointer;
  readonly journalPath: string;
  /** Named in messages: the execution and its checkpoint store. */
  readonly executionDir: string;
  readonly storeDir: string;
  /**
   * Whether the user accepts going on from a fresh store when the store lost the checkpoint to go
   * back to (`-y`, or a question answered yes).
   */
  readonly accept: (question: string) => Promise<boolean>;
}

/**
 * The checkpoint the next run starts from: the one the interrupted codon started from (see
 * `restartPoint`), or `as-is` (with a warning journaled) when there is no safe one and the codon
 * re-runs on the workspace as it is: among others when a finished codon's end could not be
 * checkpointed (walking back would undo its files, and it does not run again). A checkpoint store
 * that cannot be read is a warning too. A store that no longer holds that checkpoint (an agent deleted
 * it; `init` made a fresh one) refuses the start until the user accepts going on from the fresh store.
 */
export async function cleanRestart(input: CleanRestartInput): Promise<CleanRestart> {
  const { sink, checkpointer } = input;
  try {
    await checkpointer.init();
    const [line, records] = await Promise.all([readJournalLine(input.journalPath), checkpointer.list()]);
    const inStore = new Set(records.map((record) => record.codonId));
    if (line.savedEnds.some((codonId) => !inStore.has(codonId))) return lostStore(input);
    if (line.unsavedEnds.length > 0) return asIs(sink, unsavedMessage(line.unsavedEnds));
    const point = restartPoint(line.steps, records, (id) => isFinishedCodon(sink.codon(id)));
    if (point.kind !== "checkpoint") return asIs(sink, point.message);
    if ((await checkpointer.resolve(point.sha)) !== undefined) return { kind: "checkpoint", sha: point.sha };
    return lostStore(input);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return asIs(sink, `the checkpoints could not be read (${why})`);
  }
}

/** The code in the refusal, and in the warning once the user went on from a fresh store. */
export const CHECKPOINTS_LOST_CODE = "checkpoints-lost";

async function lostStore(input: CleanRestartInput): Promise<CleanRestart> {
  const lost = `the checkpoint store ${input.storeDir} no longer holds the checkpoints the journal restarts from (it was deleted or replaced; code ${CHECKPOINTS_LOST_CODE})`;
  const question = `${capitalized(lost)}. Go on from a fresh store, on the files as they are?`;
  if (await input.accept(question)) {
    return asIs(input.sink, `${lost}; going on from a fresh store, as accepted`, CHECKPOINTS_LOST_CODE);
  }
  const again = shellCommand(["hankweave", "--execution", input.executionDir, "-y"]);
  return {
    kind: "refused",
    message: `${capitalized(lost)}. Nothing was run. To go on from a fresh store, on the files as they are: ${again}`,
  };
}

function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** Why no checkpoint is safe: walking back would undo these finished codons, which will not run again. */
function unsavedMessage(codonIds: readonly string[]): string {
  const list = codonIds.join(", ");
  return codonIds.length === 1
    ? `codon ${list} finished but its end was never checkpointed, so its files are kept`
    : `codons ${list} finished but their ends were never checkpointed, so their files are kept`;
}

function asIs(sink: EventSink, why: string, code?: string): CleanRestart {
  sink.emit("error", {
    message: `The workspace cannot be put back to where the interrupted codon started: ${why}. It runs again on the files as they are.`,
    fatal: false,
    severity: "warning",
    ...(code !== undefined && { code }),
  });
  return { kind: "as-is" };
}

/** `-y`, or the answer to the question (no when nothing can ask). */
export function acceptedBy(
  options: {
    readonly yes?: boolean;
    readonly confirm?: (question: string, timeoutMs: number) => Promise<boolean>;
  },
  question: string,
): Promise<boolean> {
  if (options.yes === true) return Promise.resolve(true);
  return options.confirm?.(question, CONFIRM_TIMEOUT_MS) ?? Promise.resolve(false);
}
