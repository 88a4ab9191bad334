import type { Checkpointer, RestoreReport } from "../../checkpoint/index.ts";
import type { HankFile } from "../../hank/schema/index.ts";
import type { EventSink } from "../run/event-sink.ts";
import { isFinishedCodon, restartPoint } from "./checkpoint-thread.ts";
import type { JournalLine } from "./journal-line.ts";
import { checkpointGlobsOf } from "./plan-after-rollback.ts";
import { ROLLBACK_ABANDONED_CODE } from "./rollback-types.ts";

export type AbandonResult =
  | {
      readonly ok: true;
      /** The checkpoint the files were put back to; absent when no safe one was known (see `warning`). */
      readonly checkpoint?: string;
      readonly report?: RestoreReport;
      readonly warning?: string;
    }
  | { readonly ok: false; readonly message: string };

/**
 * Abandons a rollback that was interrupted (its `rollback.started` has no `rollback.completed`): the
 * checkpointed files, which it may have partly restored, are put back to where the execution stood
 * before it (the current line's last checkpoint of a finished codon), and the abandonment is journaled
 * (an `error` with code `rollback-abandoned`), after which the execution resumes as if the rollback
 * had never started. The caller holds the execution lock.
 */
export async function abandonRollback(
  input: { readonly hank: HankFile; readonly line: JournalLine },
  deps: { readonly sink: EventSink; readonly checkpointer: Checkpointer },
): Promise<AbandonResult> {
  const started = input.line.interrupted;
  if (started === null)
    return { ok: false, message: "This execution has no interrupted rollback to abandon." };
  await deps.checkpointer.init();
  const records = await deps.checkpointer.list();
  const point = restartPoint(input.line.steps, records, (id) => isFinishedCodon(deps.sink.codon(id)));
  const what = `Rollback to ${started.toCodon} (checkpoint ${started.toCheckpoint.slice(0, 7)}) abandoned`;
  if (point.kind === "unknown") {
    const warning = `${what}; the checkpointed files could not be put back (${point.message}) and may be partly restored.`;
    deps.sink.emit("error", {
      message: warning,
      fatal: false,
      severity: "operation",
      code: ROLLBACK_ABANDONED_CODE,
    });
    return { ok: true, warning };
  }
  const report = await deps.checkpointer.restore(point.sha, { globs: checkpointGlobsOf(input.hank) });
  deps.sink.emit("error", {
    message: `${what}: the checkpointed files are back at checkpoint ${point.sha.slice(0, 7)} (${report.restored.length} restored, ${report.removed.length} removed); the execution goes on from there.`,
    fatal: false,
    severity: "operation",
    code: ROLLBACK_ABANDONED_CODE,
  });
  return { ok: true, checkpoint: point.sha, report };
}
