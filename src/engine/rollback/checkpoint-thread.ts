import type { CheckpointRecord } from "../../checkpoint/index.ts";
import type { LineStep } from "./journal-line.ts";

/**
 * The execution thread (reference 1.14): the checkpoints the current state descends from, oldest first.
 * Each run's line starts where the line before it stood: a plain start continues from the previous
 * run's latest checkpoint, a rollback from its target. So, walking the journal's steps in order, a run
 * appends its own checkpoints and a rollback cuts the thread back to its target (to nothing when the
 * target is not a recorded checkpoint, e.g. the store's initial commit). Checkpoints of runs the journal
 * does not know, and those a rollback abandoned, are not on the thread.
 *
 * `records`: every checkpoint of the store (`Checkpointer.list()`), each run's oldest first.
 */
export function checkpointThread(
  steps: readonly LineStep[],
  records: readonly CheckpointRecord[],
): CheckpointRecord[] {
  const byRun = new Map<string, CheckpointRecord[]>();
  for (const record of records) {
    const own = byRun.get(record.runId);
    if (own === undefined) byRun.set(record.runId, [record]);
    else own.push(record);
  }
  let thread: CheckpointRecord[] = [];
  const seen = new Set<string>();
  for (const step of steps) {
    if (step.kind === "rollback") {
      const at = thread.findIndex((record) => record.sha === step.checkpoint);
      thread = thread.slice(0, at + 1);
      continue;
    }
    if (seen.has(step.runId)) continue;
    seen.add(step.runId);
    thread = thread.concat(byRun.get(step.runId) ?? []);
  }
  return thread;
}

/** The run whose line a rollback now leaves: the latest started run, or the latest pending continuation. */
export function currentRunOf(steps: readonly LineStep[]): string | undefined {
  const last = steps[steps.length - 1];
  if (last === undefined) return undefined;
  return last.kind === "run" ? last.runId : last.toRun;
}
