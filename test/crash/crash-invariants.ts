import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createGitCheckpointer } from "../../src/checkpoint/git/index.ts";
import { checkpointThread, readJournalLine } from "../../src/engine/rollback/index.ts";
import {
  initialRunState,
  type JournaledEvent,
  type RunState,
  readAll,
  readSnapshot,
  reduce,
} from "../../src/journal/index.ts";
import { isPlanFinished, parseExecutionPlan } from "../../src/plan/index.ts";
import { executionLayout } from "../../src/workspace/execution-layout.ts";
import { TORN_ID } from "./crash-points.ts";

/**
 * What must hold for the crash-loop hank (test/fixtures/crash-loop) after any kill, and once a rerun
 * has completed it: the journal reads cleanly and the snapshot is a prefix of it; every codon of the
 * plan completed exactly once; the workspace is byte for byte the one an uninterrupted run leaves; and
 * the execution's line of checkpoints holds one `completed` checkpoint per codon, each with exactly the
 * files of the uninterrupted run's checkpoint of that codon.
 */

export const PLAN_IDS = ["setup", "x#0", "y#0", "x#1", "y#1", "x#2", "y#2", "final"] as const;

/** What an uninterrupted run of the crash-loop hank leaves: its files, and its checkpoints' trees. */
export interface Reference {
  readonly files: ReadonlyMap<string, string>;
  readonly checkpointTrees: readonly string[];
}

function replay(events: readonly JournaledEvent[]): RunState {
  return events.reduce(reduce, initialRunState());
}

/** After a kill: the journal reads cleanly (a torn tail aside) and state.json is a prefix of it. */
export async function checkAfterKill(executionDir: string): Promise<RunState> {
  const layout = executionLayout(executionDir);
  const read = await readAll(layout.eventsPath, { validate: true });
  assert.equal(read.skipped, 0, "no journal record is unreadable");
  checkSnapshotIsPrefix(layout.stateDir, read.events);
  return replay(read.events);
}

/** state.json holds exactly the state of the journal up to its `lastSeq`, and ends on the same record. */
function checkSnapshotIsPrefix(stateDir: string, events: readonly JournaledEvent[]): void {
  const snapshot = readSnapshot(stateDir);
  if (!snapshot.found) return;
  const { runState } = snapshot.snapshot;
  const covered = events.filter((event) => event.seq <= runState.lastSeq);
  assert.equal(
    covered[covered.length - 1]?.id ?? null,
    runState.lastEventId,
    "snapshot ends on a journal record",
  );
  assert.deepEqual(runState, replay(covered), "state.json is the journal's state at its lastSeq");
}

/** Every file of the agent workspace (the data link aside), by relative path, with its content. */
export function workspaceFiles(agentRoot: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string, prefix: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const relative = prefix === "" ? name : `${prefix}/${name}`;
      if (relative === "read_only_data_source") continue;
      const stats = lstatSync(path);
      if (stats.isDirectory()) walk(path, relative);
      else files.set(relative, readFileSync(path, "utf8"));
    }
  };
  walk(agentRoot, "");
  return files;
}

/** The tree ids of the `completed` checkpoints on the execution's line, in line order, by codon. */
export async function completedTrees(executionDir: string): Promise<string[]> {
  const layout = executionLayout(executionDir);
  const checkpointer = createGitCheckpointer({
    gitDir: layout.checkpointGitDir,
    workTree: layout.agentRoot,
    clock: { now: () => Date.now() },
  });
  await checkpointer.init();
  const [line, records] = await Promise.all([readJournalLine(layout.eventsPath), checkpointer.list()]);
  const completed = checkpointThread(line.steps, records).filter((c) => c.checkpointType === "completed");
  assert.deepEqual(
    completed.map((c) => c.codonId),
    [...PLAN_IDS],
    "one completed checkpoint per codon on the execution's line, in plan order",
  );
  const shown = execFileSync(
    "git",
    ["--git-dir", layout.checkpointGitDir, "show", "-s", "--format=%T", ...completed.map((c) => c.sha)],
    { encoding: "utf8" },
  );
  return shown.trim().split("\n");
}

/** The reference an uninterrupted run leaves (it must pass the same checks itself). */
export async function referenceOf(executionDir: string): Promise<Reference> {
  const layout = executionLayout(executionDir);
  return { files: workspaceFiles(layout.agentRoot), checkpointTrees: await completedTrees(executionDir) };
}

export interface CompletedFacts {
  readonly state: RunState;
  readonly events: readonly JournaledEvent[];
}

/**
 * After the rerun that completed: every invariant of the execution. `cancels`: a run of this
 * execution was stopped by a delivered SIGINT, so `aborted` runs and attempts may appear.
 */
export async function checkCompleted(
  executionDir: string,
  reference: Reference,
  cancels = false,
): Promise<CompletedFacts> {
  const layout = executionLayout(executionDir);
  const read = await readAll(layout.eventsPath, { validate: true });
  assert.deepEqual([read.skipped, read.torn], [0, false], "the journal is whole");
  assert.ok(!read.events.some((e) => e.id === TORN_ID), "the torn record was cut off");
  const state = replay(read.events);
  checkCodonsOnce(read.events, cancels);
  checkLoop(read.events);
  checkRuns(read.events, state, cancels);
  checkFinalSnapshot(layout.stateDir, state);
  assert.deepEqual(
    workspaceFiles(layout.agentRoot),
    reference.files,
    "the workspace is byte for byte the uninterrupted run's",
  );
  assert.deepEqual(
    await completedTrees(executionDir),
    reference.checkpointTrees,
    "each codon's completed checkpoint holds what the uninterrupted run's does",
  );
  assert.equal(existsSync(layout.lockPath), false, "the runtime lock is released");
  return { state, events: read.events };
}

/**
 * Each runtime id of the plan completed exactly once, in plan order; nothing outside the plan started.
 * A failed attempt is only one a kill interrupted (or, with `cancels`, one a SIGINT aborted).
 */
function checkCodonsOnce(events: readonly JournaledEvent[], cancels: boolean): void {
  const completions = events.flatMap((e) => (e.type === "codon.completed" ? [e.data] : []));
  assert.deepEqual(
    completions.filter((c) => c.success).map((c) => c.codonId),
    [...PLAN_IDS],
    "one successful codon.completed per codon, in plan order",
  );
  const cutShort = new Set(cancels ? ["interrupted", "aborted"] : ["interrupted"]);
  for (const failed of completions.filter((c) => !c.success)) {
    assert.ok(
      cutShort.has(failed.endReasons?.codon ?? ""),
      `a failed attempt of ${failed.codonId} was cut short, not failed: ${JSON.stringify(failed)}`,
    );
    if (failed.endReasons?.codon === "interrupted") {
      assert.deepEqual(failed.exitStatus, { type: "none" }, "how a crashed attempt's agent ended is unknown");
    }
  }
  const started = new Set(events.flatMap((e) => (e.type === "codon.started" ? [e.data.codonId] : [])));
  assert.deepEqual([...started].sort(), [...PLAN_IDS].sort(), "no codon outside the plan started");
}

function checkLoop(events: readonly JournaledEvent[]): void {
  const reports = events.flatMap((e) => (e.type === "loop.iteration.completed" ? [e.data] : []));
  assert.deepEqual(
    reports.map((r) => [r.loopId, r.iteration, r.isFinal, r.terminationReason ?? null]),
    [
      ["L", 0, false, null],
      ["L", 1, false, null],
      ["L", 2, true, "iteration_limit"],
    ],
    "the loop ran exactly its three iterations, each reported once",
  );
}

/**
 * Runs: every run but the last was killed (interrupted), stopped by a SIGINT (aborted) or completed;
 * the last completed. A crash leaves no codon active: recovery journaled each in-flight attempt.
 */
function checkRuns(events: readonly JournaledEvent[], state: RunState, cancels: boolean): void {
  let current = initialRunState();
  for (const event of events) {
    if (event.type === "state.transition" && event.data.transitionType === "RunCrashed") {
      const active = current.codons.filter((c) => !["completed", "failed", "skipped"].includes(c.status));
      assert.deepEqual(
        active.map((c) => c.id),
        [],
        "recovery journaled every in-flight attempt before the crash mark",
      );
    }
    if (event.type === "state.transition" && event.data.transitionType === "RunFailed") {
      assert.ok(cancels && event.data.transition.data.reason === "aborted", "no run failed");
    }
    current = reduce(current, event);
  }
  const statuses = state.runs.map((run) => run.status);
  const allowed = new Set(cancels ? ["interrupted", "aborted", "completed"] : ["interrupted", "completed"]);
  assert.equal(statuses[statuses.length - 1], "completed", "the last run completed");
  assert.ok(
    statuses.every((s) => allowed.has(s)),
    `runs: ${statuses.join(", ")}`,
  );
  assert.equal(state.currentRunId, null);
}

/** The final snapshot is the whole journal's state, with a finished plan of the expected codons. */
function checkFinalSnapshot(stateDir: string, state: RunState): void {
  const snapshot = readSnapshot(stateDir);
  assert.ok(snapshot.found, "state.json exists");
  assert.deepEqual(snapshot.snapshot.runState, state, "state.json agrees with the journal");
  const plan = parseExecutionPlan(snapshot.snapshot.executionPlan);
  assert.ok(plan.ok, "the saved plan parses");
  assert.deepEqual(
    plan.plan.entries.map((e) => e.runtimeId),
    [...PLAN_IDS],
  );
  assert.deepEqual(plan.plan.loops.L, {
    iteration: 2,
    terminated: true,
    endCause: "iteration_limit",
    terminationReason: "iteration_limit",
  });
  assert.ok(isPlanFinished(plan.plan, new Set(PLAN_IDS)));
}
