import { existsSync } from "node:fs";
import { createGitCheckpointer } from "../checkpoint/git/index.ts";
import type { CheckpointRecord } from "../checkpoint/index.ts";
import { runBranch } from "../checkpoint/index.ts";
import {
  type CheckpointListData,
  type Clock,
  checkpointListData,
  checkpointThread,
  currentRunOf,
  type RollbackTarget,
  readJournalLine,
  resolveRollbackTarget,
} from "../engine/index.ts";
import { codonIndex } from "../journal/index.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";

/**
 * The `checkpoint.list` answer: the checkpoints of one run (`runId`, default the execution's current
 * run), oldest first, with the current branch. Reads only and takes no lock, like
 * `hankweave checkpoints`, so it may run while a run is live. Throws when the store cannot be read, or
 * when `runId` names no run of this execution (an empty list would read as "no checkpoints yet").
 */
export async function queryCheckpoints(
  layout: ExecutionLayout,
  clock: Clock,
  runId: string | undefined,
): Promise<CheckpointListData> {
  const line = await readJournalLine(layout.eventsPath);
  const current = currentRunOf(line.steps);
  const wanted = runId ?? current ?? "";
  if (runId !== undefined && !runsOf(line.steps).includes(runId)) {
    throw new Error(
      `Unknown run: ${runId}. This execution's runs: ${runsOf(line.steps).join(", ") || "none"}`,
    );
  }
  const currentBranch = current === undefined ? "" : runBranch(current);
  const records = wanted === "" ? [] : await readRecords(layout, clock, wanted);
  return checkpointListData(wanted, records, currentBranch);
}

/**
 * Why a rollback to `target` would be refused, read without the lock and without writing anything (the
 * same resolution the rollback itself makes), so a parked run is stopped only for a rollback that can
 * go ahead. Undefined when the target resolves.
 */
export async function rollbackTargetProblem(
  layout: ExecutionLayout,
  clock: Clock,
  target: RollbackTarget,
): Promise<string | undefined> {
  const line = await readJournalLine(layout.eventsPath);
  if (currentRunOf(line.steps) === undefined) return "This execution has no run to roll back.";
  let records: CheckpointRecord[];
  try {
    records = await readRecords(layout, clock);
  } catch (caught) {
    return `The checkpoints could not be read: ${caught instanceof Error ? caught.message : String(caught)}`;
  }
  const resolved = resolveRollbackTarget(target, {
    thread: checkpointThread(line.steps, records),
    all: records,
  });
  if (!resolved.ok) return resolved.message;
  if (codonIndex(line.state, resolved.codonId) === -1) {
    return `The journal has no record of codon ${resolved.codonId}: its checkpoint does not belong to this execution's current line.`;
  }
  return undefined;
}

type LineStep = Parameters<typeof currentRunOf>[0][number];

/** The ids of the execution's runs, oldest first, from its journal. */
function runsOf(steps: readonly LineStep[]): string[] {
  return [...new Set(steps.map((step) => (step.kind === "run" ? step.runId : step.toRun)))];
}

/** The store's checkpoints (of one run, or all); none before the store exists. */
async function readRecords(
  layout: ExecutionLayout,
  clock: Clock,
  runId?: string,
): Promise<CheckpointRecord[]> {
  if (!existsSync(layout.checkpointGitDir)) return [];
  const checkpointer = createGitCheckpointer({
    gitDir: layout.checkpointGitDir,
    workTree: layout.agentRoot,
    clock,
  });
  await checkpointer.init();
  return checkpointer.list(runId);
}
