import type { CheckpointRecord } from "../../checkpoint/index.ts";
import type { CodonRecord } from "../../journal/index.ts";
import type { LineStep } from "./journal-line.ts";

/**
 * The execution thread (reference 1.14): the checkpoints the current state descends from, oldest first.
 * Each run's line starts where the line before it stood: a plain start continues from the previous
 * run's latest checkpoint, a rollback from its target, and a run whose base the journal names (a
 * restart after a crash) from that base. So, walking the journal's steps in order, a run appends its
 * own checkpoints, and a rollback or a named base cuts the thread back to that checkpoint (to nothing
 * when it is not a recorded checkpoint, e.g. the store's initial commit). Checkpoints of runs the
 * journal does not know, and those a rollback or a restart abandoned, are not on the thread.
 *
 * `records`: every checkpoint of the store (`Checkpointer.list()`), each run's oldest first.
 */
export function checkpointThread(
  steps: readonly LineStep[],
  records: readonly CheckpointRecord[],
): CheckpointRecord[] {
  return walkThread(steps, records).thread;
}

/**
 * The thread, split where the current generation (a fresh start from the first codon) begins: the
 * first `floor` checkpoints precede it, and `start` is the commit its line hangs from (a checkpoint,
 * a rollback target, or the store's initial commit); unknown for journals that never named a base.
 */
interface Walked {
  readonly thread: CheckpointRecord[];
  readonly floor: number;
  readonly start: string | undefined;
}

function walkThread(steps: readonly LineStep[], records: readonly CheckpointRecord[]): Walked {
  const byRun = new Map<string, CheckpointRecord[]>();
  for (const record of records) {
    const own = byRun.get(record.runId);
    if (own === undefined) byRun.set(record.runId, [record]);
    else own.push(record);
  }
  let thread: CheckpointRecord[] = [];
  let floor = 0;
  let start: string | undefined;
  const cut = (sha: string): void => {
    thread = thread.slice(0, thread.findIndex((record) => record.sha === sha) + 1);
    if (thread.length <= floor) {
      floor = thread.length;
      start = sha;
    }
  };
  const seen = new Set<string>();
  for (const step of steps) {
    if (step.kind === "rollback") {
      cut(step.checkpoint);
      continue;
    }
    if (seen.has(step.runId)) continue;
    seen.add(step.runId);
    if (step.base !== undefined) cut(step.base);
    if (step.fresh === true) {
      floor = thread.length;
      start = step.base ?? thread[floor - 1]?.sha ?? start;
    }
    thread = thread.concat(byRun.get(step.runId) ?? []);
  }
  return { thread, floor, start };
}

/** Whether the journal counts the codon as done: the plan will not run it again. */
export function isFinishedCodon(codon: CodonRecord | undefined): boolean {
  if (codon === undefined) return false;
  return codon.status === "completed" || codon.status === "skipped" || codon.failureIgnored;
}

/** Where a restart after a crash or a cancel puts the workspace back, or why it cannot. */
export type RestartPoint =
  | {
      readonly kind: "checkpoint";
      readonly sha: string;
      /** The thread's checkpoints after it: made by attempts that never finished (newest last). */
      readonly abandoned: readonly CheckpointRecord[];
    }
  | { readonly kind: "unknown"; readonly message: string };

/**
 * The checkpoint an interrupted codon started from: the thread without its trailing checkpoints of
 * codons the journal does not count as finished (an interrupted attempt's rig-setup checkpoint, or
 * the `completed` checkpoint of a codon killed before its `codon.completed` was journaled). Its last
 * checkpoint must end a finished codon; a finished codon whose end was never checkpointed (its commit
 * failed) leaves no safe point, and neither does a thread emptied without a known root.
 */
export function restartPoint(
  steps: readonly LineStep[],
  records: readonly CheckpointRecord[],
  isFinished: (codonId: string) => boolean,
): RestartPoint {
  const { thread, floor, start } = walkThread(steps, records);
  let keep = thread.length;
  while (keep > floor && !isFinished(thread[keep - 1]?.codonId ?? "")) keep--;
  const abandoned = thread.slice(keep);
  const last = keep > floor ? thread[keep - 1] : undefined;
  if (last === undefined) {
    if (start === undefined)
      return { kind: "unknown", message: "the journal does not say where the line starts" };
    return { kind: "checkpoint", sha: start, abandoned };
  }
  if (last.checkpointType === "rig-setup") {
    return {
      kind: "unknown",
      message: `codon ${last.codonId} finished but its end was never checkpointed`,
    };
  }
  return { kind: "checkpoint", sha: last.sha, abandoned };
}

/** The run whose line a rollback now leaves: the latest started run, or the latest pending continuation. */
export function currentRunOf(steps: readonly LineStep[]): string | undefined {
  const last = steps[steps.length - 1];
  if (last === undefined) return undefined;
  return last.kind === "run" ? last.runId : last.toRun;
}
