import assert from "node:assert/strict";
import { existsSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { initialRunState, readAll, reduce } from "../../src/journal/index.ts";
import { executionLayout } from "../../src/workspace/execution-layout.ts";
import type { SignalledRun } from "./crash-driver.ts";
import { rebuildAroundCompletion, tearJournalTail } from "./crash-points.ts";
import type { KillPoint } from "./kill-points.ts";

/** What the crash matrix does after each signal, besides the checks of crash-invariants.ts. */

/** Turns a kill into the exact point its `rebuild` names; says what was done. */
export function applyRebuild(point: KillPoint, journal: string): string {
  const rebuild = point.rebuild;
  if (rebuild === undefined) return "killed";
  const stateDir = dirname(dirname(journal));
  if (rebuild.kind === "torn-append") {
    tearJournalTail(journal);
    return "killed, tail torn";
  }
  if (rebuild.kind === "snapshot-lost") {
    for (const file of ["state.json", "state.json.bak"]) rmSync(join(stateDir, file), { force: true });
    return "killed, snapshot removed";
  }
  const outcome = rebuildAroundCompletion(
    journal,
    stateDir,
    rebuild.codonId ?? "",
    rebuild.kind === "before-snapshot",
  );
  return outcome === "rebuilt" ? "rebuilt" : `plain kill (${outcome})`;
}

/** Processes whose working directory is inside `dir` (Linux: /proc; elsewhere nothing is checked). */
function processesIn(dir: string): number[] {
  if (!existsSync("/proc/self/cwd")) return [];
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cwd = readlinkSync(`/proc/${name}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) found.push(Number(name));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

/**
 * A Ctrl-C'd CLI exits with 0. A second Ctrl-C that lands after the shutdown has finished, while Node
 * tears the process down (its signal handlers already closed, so the signal's default action applies),
 * ends it by that signal instead; that counts when the run's summary was printed, since all the
 * shutdown had to do was done by then (the checks after this one verify it).
 */
function exitedAsShutdown(run: SignalledRun, point: KillPoint): boolean {
  if (run.result.code === 0) return true;
  const lateSecond = point.trigger.secondAfterMs !== undefined && run.result.signal === point.trigger.signal;
  return lateSecond && /Run (aborted|completed)/.test(run.result.stderr);
}

/**
 * After a Ctrl-C the CLI shut down as a user shutdown: exit code 0, the run `aborted` (or completed,
 * when the signal came at its very end), an attempt in flight `aborted` with no failure reason
 * invented, the lock released, and no process of the run left behind.
 */
export async function checkCancelled(
  run: SignalledRun,
  executionDir: string,
  point: KillPoint,
): Promise<string> {
  assert.ok(
    exitedAsShutdown(run, point),
    `${point.label}: exit code ${run.result.code}\n${run.result.stderr}`,
  );
  const layout = executionLayout(executionDir);
  assert.equal(existsSync(layout.lockPath), false, `${point.label}: the lock is released`);
  assert.deepEqual(processesIn(layout.agentRoot), [], `${point.label}: no process left in the workspace`);
  const { events } = await readAll(layout.eventsPath, { validate: true });
  const state = events.reduce(reduce, initialRunState());
  const last = state.runs[state.runs.length - 1];
  assert.ok(
    last?.status === "aborted" || last?.status === "completed",
    `${point.label}: run ${last?.status}`,
  );
  const started = events.findLastIndex(
    (e) => e.type === "state.transition" && e.data.transitionType === "RunStarted",
  );
  for (const event of events.slice(started)) {
    if (event.type === "codon.completed" && !event.data.success) {
      assert.equal(event.data.endReasons?.codon, "aborted", `${point.label}: ${event.data.codonId} aborted`);
      assert.equal(event.data.failureReason, undefined, `${point.label}: no failure reason is invented`);
    }
    if (event.type === "error")
      assert.notEqual(event.data.severity, "fatal", `${point.label}: ${event.data.message}`);
  }
  return `interrupted, run ${last?.status}`;
}
