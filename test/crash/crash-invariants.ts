import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createGitCheckpointer } from "../../src/checkpoint/git/index.ts";
import type { CheckpointRecord } from "../../src/checkpoint/index.ts";
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
 * has completed it. "No file of the workspace is lost" means: for every codon of the plan, in plan
 * order, trail.txt holds its `begin` line directly followed by its `end` line (the attempt that
 * completed); other lines come only from attempts a kill interrupted, and are whole lines; and every
 * checkpoint of a completion holds trail.txt exactly as that codon left it.
 */

export const PLAN_IDS = ["setup", "x#0", "y#0", "x#1", "y#1", "x#2", "y#2", "final"] as const;

function configOf(runtimeId: string): string {
  return runtimeId.split("#")[0] ?? runtimeId;
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

export interface CompletedFacts {
  readonly state: RunState;
  readonly events: readonly JournaledEvent[];
}

/** After the rerun that completed: every invariant of the execution. */
export async function checkCompleted(executionDir: string): Promise<CompletedFacts> {
  const layout = executionLayout(executionDir);
  const read = await readAll(layout.eventsPath, { validate: true });
  assert.deepEqual([read.skipped, read.torn], [0, false], "the journal is whole");
  assert.ok(!read.events.some((e) => e.id === TORN_ID), "the torn record was cut off");
  const state = replay(read.events);
  checkCodonsOnce(read.events);
  checkLoop(read.events);
  checkRuns(read.events, state);
  checkFinalSnapshot(layout.stateDir, state);
  await checkCheckpoints(layout.checkpointGitDir, layout.agentRoot, read.events);
  checkWorkspace(layout.agentRoot, state);
  assert.equal(existsSync(layout.lockPath), false, "the runtime lock is released");
  return { state, events: read.events };
}

/** Each runtime id of the plan completed exactly once; nothing else ever started; no failure recorded. */
function checkCodonsOnce(events: readonly JournaledEvent[]): void {
  const completions = events.flatMap((e) => (e.type === "codon.completed" ? [e.data] : []));
  assert.deepEqual(
    completions.map((c) => [c.codonId, c.success]),
    PLAN_IDS.map((id) => [id, true]),
    "one successful codon.completed per codon, in plan order, and no failed attempt",
  );
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
 * Runs: every run but the last was killed (crashed) or completed; the last completed. A crash is
 * recorded as `interrupted` on the codon it stopped, never as an abort or a failure of the run.
 */
function checkRuns(events: readonly JournaledEvent[], state: RunState): void {
  let current = initialRunState();
  for (const event of events) {
    const next = reduce(current, event);
    if (event.type === "state.transition" && event.data.transitionType === "RunCrashed") {
      for (const before of current.codons.filter(
        (c) => !["completed", "failed", "skipped"].includes(c.status),
      )) {
        const after = next.codons.find((c) => c.id === before.id);
        assert.equal(after?.status, "failed", `${before.id} is settled by the crash`);
        assert.equal(after?.endReasons?.codon, "interrupted", `${before.id} is marked interrupted`);
      }
    }
    assert.ok(
      !(event.type === "state.transition" && event.data.transitionType === "RunFailed"),
      "no run failed or was aborted",
    );
    current = next;
  }
  const statuses = state.runs.map((run) => run.status);
  assert.equal(statuses[statuses.length - 1], "completed", "the last run completed");
  assert.ok(
    statuses.every((s) => s === "interrupted" || s === "completed"),
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

/** The run each successful completion was journaled in, by runtime id. */
function completionRuns(events: readonly JournaledEvent[]): Map<string, string> {
  const runs = new Map<string, string>();
  let runId = "";
  for (const event of events) {
    if (event.type === "state.transition" && event.data.transitionType === "RunStarted")
      runId = event.data.runId ?? "";
    if (event.type === "codon.completed" && event.data.success) runs.set(event.data.codonId, runId);
  }
  return runs;
}

function showAt(gitDir: string, sha: string, path: string): string {
  return execFileSync("git", ["--git-dir", gitDir, "show", `${sha}:${path}`], { encoding: "utf8" });
}

/**
 * Every journaled completion has its `completed` checkpoint in the same run, holding trail.txt as the
 * codon left it (ending with its own begin/end lines); no checkpoint names a codon outside the plan.
 */
async function checkCheckpoints(
  gitDir: string,
  agentRoot: string,
  events: readonly JournaledEvent[],
): Promise<void> {
  const checkpointer = createGitCheckpointer({
    gitDir,
    workTree: agentRoot,
    clock: { now: () => Date.now() },
  });
  await checkpointer.init();
  const all = await checkpointer.list();
  const planIds: readonly string[] = PLAN_IDS;
  assert.deepEqual(
    all.filter((c) => !planIds.includes(c.codonId)),
    [],
    "checkpoints only of planned codons",
  );
  let last: CheckpointRecord | undefined;
  for (const [codonId, runId] of completionRuns(events)) {
    const found = all.filter(
      (c) => c.codonId === codonId && c.runId === runId && c.checkpointType === "completed",
    );
    assert.equal(found.length, 1, `one completed checkpoint of ${codonId} in run ${runId}`);
    last = found[0];
    const trail = last === undefined ? "" : showAt(gitDir, last.sha, "trail.txt");
    const own = configOf(codonId);
    assert.ok(trail.endsWith(`${own} begin\n${own} end\n`), `the checkpoint of ${codonId} holds its work`);
  }
  assert.equal(
    last === undefined ? "" : showAt(gitDir, last.sha, "trail.txt"),
    readFileSync(join(agentRoot, "trail.txt"), "utf8"),
    "the last checkpoint holds the workspace's trail.txt",
  );
}

/** See the module comment: the plan's work is all there, in order; extra lines only from interruptions. */
function checkWorkspace(agentRoot: string, state: RunState): void {
  const lines = readFileSync(join(agentRoot, "trail.txt"), "utf8").split("\n");
  assert.equal(lines.pop(), "", "trail.txt ends with a whole line");
  const allowed = new Set(["setup", "x", "y", "final"].flatMap((id) => [`${id} begin`, `${id} end`]));
  assert.deepEqual(
    lines.filter((line) => !allowed.has(line)),
    [],
    "every line is whole",
  );
  let at = 0;
  for (const id of PLAN_IDS) {
    const own = configOf(id);
    let found = -1;
    for (let i = at; i + 1 < lines.length && found < 0; i++) {
      if (lines[i] === `${own} begin` && lines[i + 1] === `${own} end`) found = i;
    }
    assert.ok(found >= 0, `trail.txt holds the work of ${id} after the work of the codons before it`);
    at = found + 2;
  }
  for (const own of ["setup", "x", "y", "final"]) {
    const attempts = state.codons.filter((c) => configOf(c.id) === own).reduce((n, c) => n + c.attempts, 0);
    const begins = lines.filter((line) => line === `${own} begin`).length;
    assert.ok(begins <= attempts, `${own}: ${begins} begin lines from at most ${attempts} attempts`);
  }
  assert.equal(readFileSync(join(agentRoot, "out", "setup.txt"), "utf8"), "setup");
  assert.match(readFileSync(join(agentRoot, "rig.txt"), "utf8"), /^(rigged\n)+$/);
}
