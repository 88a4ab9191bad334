import type { DataOf, JournaledEvent } from "../../journal/index.ts";
import { ROLLBACK_ABANDONED_CODE } from "./rollback-types.ts";

/**
 * What the journal's tail says about the next start, after a rollback:
 * - `continuation`: a rollback completed and no run has started since: the next run is `runId`, whose
 *   checkpoint line the rollback already created at its target;
 * - `interrupted`: a rollback started and never completed: files may be half restored while the plan
 *   is not, so the next start must repeat the rollback first;
 * - `none`: the latest of these events is a run start (or there is none).
 */
export type RollbackAftermath =
  | { readonly kind: "none" }
  | { readonly kind: "continuation"; readonly runId: string; readonly rollback: DataOf<"rollback.completed"> }
  | { readonly kind: "interrupted"; readonly rollback: DataOf<"rollback.started"> };

/**
 * Reads the aftermath from the latest events of the journal, oldest first (`readTail`): the newest of a
 * run start, a `rollback.completed`, a `rollback.started` and an abandoned rollback decides.
 */
export function rollbackAftermath(tail: readonly JournaledEvent[]): RollbackAftermath {
  for (let index = tail.length - 1; index >= 0; index--) {
    const event = tail[index];
    if (event === undefined) continue;
    if (event.type === "rollback.completed") {
      return { kind: "continuation", runId: event.data.toRun, rollback: event.data };
    }
    if (event.type === "rollback.started") return { kind: "interrupted", rollback: event.data };
    if (event.type === "error" && event.data.code === ROLLBACK_ABANDONED_CODE) return { kind: "none" };
    if (event.type === "state.transition" && event.data.transitionType === "RunStarted")
      return { kind: "none" };
  }
  return { kind: "none" };
}

/** How many tail events to read: a rollback writes fewer than this between its start and its end. */
export const AFTERMATH_TAIL_EVENTS = 64;

/** The message a start shows when a rollback was interrupted: finish it, or abandon it. */
export function interruptedRollbackMessage(data: DataOf<"rollback.started">, executionDir: string): string {
  return [
    `A rollback to ${data.toCodon} (${data.checkpointType}, checkpoint ${data.toCheckpoint.slice(0, 7)}) was interrupted before it completed; the checkpointed files may be partly restored. Either:`,
    `  finish it:   hankweave rollback ${data.toCheckpoint.slice(0, 12)} -e ${executionDir}`,
    `  abandon it:  hankweave rollback --abandon -e ${executionDir}   (puts the files back to where the execution stood)`,
    "then run the execution again.",
  ].join("\n");
}

/**
 * An id source whose first id is `first` (the pending continuation run), then `next()`'s: the engine
 * takes its run id from the first call.
 */
export function continuationIds(first: string | undefined, next: () => string): () => string {
  let pending = first;
  return () => {
    if (pending === undefined) return next();
    const id = pending;
    pending = undefined;
    return id;
  };
}
