import { existsSync } from "node:fs";
import { createGitCheckpointer } from "../checkpoint/git/index.ts";
import type { CheckpointRecord } from "../checkpoint/index.ts";
import {
  type CheckpointListData,
  checkpointListData,
  checkpointLists,
  checkpointThread,
  currentRunOf,
  type RollbackTarget,
  readJournalLine,
  resolveRollbackTarget,
} from "../engine/rollback/index.ts";
import { runBranch } from "../events/checkpoints.ts";
import { codonIndex } from "../journal/index.ts";
import { type Clock, systemClock } from "../util/clock.ts";
import { type ExecutionLayout, executionLayout } from "../workspace/execution-layout.ts";
import { acquireLock } from "../workspace/lock/index.ts";
import {
  type AbandonOutcome,
  abandonInterruptedRollback,
  type RollbackOutcome,
  type RollbackRequest,
  rollBack,
} from "./roll-back.ts";

/**
 * The door to an execution for everything but a run (runs go through `runExecution`): reading its
 * checkpoints, checking a rollback target, and the maintenance that needs the execution to itself
 * (journal diet, cleanup). It owns how the checkpoint store is opened for reading and how the lock is
 * taken, so no face builds a checkpointer or takes a lock of its own.
 */
export interface ExecutionDoor {
  readonly layout: ExecutionLayout;
  /** Every run's checkpoints, oldest run first, and the ids of those on the current line. No lock. */
  checkpointLists(): Promise<CheckpointListing>;
  /**
   * The `checkpoint.list` answer for one run (default: the current one). No lock. Throws when the store
   * cannot be read, or when `runId` names no run of this execution.
   */
  checkpointList(runId?: string): Promise<CheckpointListData>;
  /**
   * Why a rollback to `target` would be refused, read without the lock and without writing anything
   * (the resolution the rollback itself makes); undefined when it resolves.
   */
  rollbackProblem(target: RollbackTarget): Promise<string | undefined>;
  /**
   * Runs `work` holding the execution's lock, as `purpose` (recorded as the lock's run id). Refused, with
   * the lock's own message, while another process holds it; `running` says whether a live holder was
   * found (false: the lock file could not be read).
   */
  withLock<T>(purpose: string, work: () => T): LockedWork<T>;
  /** Rolls the execution back under its lock (refused while a run holds it). */
  rollback(request: RollbackRequest): Promise<RollbackOutcome>;
  /** Ends an interrupted rollback without finishing it, under the lock. */
  abandonRollback(request: Pick<RollbackRequest, "hank" | "listeners">): Promise<AbandonOutcome>;
}

export interface CheckpointListing {
  readonly lists: readonly CheckpointListData[];
  readonly onLine: ReadonlySet<string>;
}

export type LockedWork<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly running: boolean; readonly message: string };

export function openExecutionDoor(
  execution: string | ExecutionLayout,
  clock: Clock = systemClock(),
): ExecutionDoor {
  const layout = typeof execution === "string" ? executionLayout(execution) : execution;
  return {
    layout,
    async checkpointLists() {
      const line = await readJournalLine(layout.eventsPath);
      const records = await readRecords(layout, clock);
      return {
        lists: checkpointLists(line.steps, records, currentRunOf(line.steps)),
        onLine: new Set(checkpointThread(line.steps, records).map((record) => record.sha)),
      };
    },
    async checkpointList(runId) {
      const line = await readJournalLine(layout.eventsPath);
      const current = currentRunOf(line.steps);
      const runs = runsOf(line.steps);
      if (runId !== undefined && !runs.includes(runId)) {
        throw new Error(`Unknown run: ${runId}. This execution's runs: ${runs.join(", ") || "none"}`);
      }
      const wanted = runId ?? current ?? "";
      const currentBranch = current === undefined ? "" : runBranch(current);
      const records = wanted === "" ? [] : await readRecords(layout, clock, wanted);
      return checkpointListData(wanted, records, currentBranch);
    },
    rollbackProblem: (target) => rollbackProblem(layout, clock, target),
    rollback: (request) => rollBack(layout, clock, request),
    abandonRollback: (request) => abandonInterruptedRollback(layout, clock, request),
    withLock(purpose, work) {
      const taken = acquireLock(layout.lockPath, { pid: process.pid, runId: purpose, clock });
      if (!taken.ok) return { ok: false, running: taken.holder !== null, message: taken.message };
      try {
        return { ok: true, value: work() };
      } finally {
        taken.lock.release();
      }
    },
  };
}

async function rollbackProblem(
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

/** The store's checkpoints (of one run, or all); none before the store exists. Reads only. */
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
