import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { isProcessAlive } from "../../workspace/lock/index.ts";
import { EXECUTION_MARK_ENV, endLeftoverProcesses, executionMarkEnv } from "./leftover-processes.ts";

const root = mkdtempSync(join(tmpdir(), "hw-leftovers-"));
const execution = join(root, "exec");
const other = join(root, "other");

/**
 * A runtime that starts processes and dies at once, as a killed one does: they are orphaned. Each is
 * `sleep 60` with the given mark (none for `null`), a group leader when `detached`; a `withChild` one is
 * `sh` with a `sleep` of its own in its group. Returns their PIDs (a `withChild` one: `sh`, then the child).
 */
interface Orphan {
  readonly markOf: string | null;
  readonly detached: boolean;
  readonly withChild?: boolean;
}

const DYING_RUNTIME = `
const { spawn } = require("node:child_process");
const orphans = JSON.parse(process.argv[1]);
let pending = orphans.length;
const pids = [];
orphans.forEach((orphan, index) => {
  const env = { ...process.env, ...orphan.env };
  const command = orphan.withChild ? ["sh", ["-c", "sleep 60 & echo $!; wait"]] : ["sh", ["-c", "echo; exec sleep 60"]];
  const child = spawn(command[0], command[1], { env, detached: orphan.detached, stdio: ["ignore", "pipe", "ignore"] });
  child.stdout.once("data", (line) => {
    pids[index] = [child.pid, ...line.toString().trim().split(/\\s+/).filter(Boolean).map(Number)];
    child.unref();
    child.stdout.destroy();
    if (--pending === 0) { process.stdout.write(JSON.stringify(pids)); process.exit(0); }
  });
});
`;

function orphansOf(orphans: readonly Orphan[]): number[][] {
  const spec = orphans.map((orphan) => ({
    detached: orphan.detached,
    withChild: orphan.withChild === true,
    env: orphan.markOf === null ? {} : executionMarkEnv(orphan.markOf),
  }));
  const run = spawnSync(process.execPath, ["-e", DYING_RUNTIME, JSON.stringify(spec)], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as number[][];
}

describe("endLeftoverProcesses", () => {
  const killAtEnd: number[] = [];
  const started: ChildProcess[] = [];
  after(() => {
    for (const pid of killAtEnd) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    for (const child of started) child.kill("SIGKILL");
    rmSync(root, { recursive: true, force: true });
  });

  it("ends what a dead runtime left carrying the execution's mark, leaders with their groups, and no other", () => {
    const [leaderPids = [], inOurGroup = [], unmarked = [], otherExecution = []] = orphansOf([
      // A rig command as a run starts it: leader of its own group, with a child of its own in the group.
      { markOf: execution, detached: true, withChild: true },
      // Marked, in this test runner's group: ended alone, the group (the runner's) is spared.
      { markOf: execution, detached: false },
      { markOf: null, detached: true },
      { markOf: other, detached: true },
    ]);
    const [leader = 0, groupChild = 0] = leaderPids;
    killAtEnd.push(leader, groupChild, ...inOurGroup, ...unmarked, ...otherExecution);
    // A marked process this process started itself: its own, never ended.
    const ownChild = spawn("sleep", ["60"], { env: { ...process.env, ...executionMarkEnv(execution) } });
    started.push(ownChild);

    const ended = endLeftoverProcesses(execution);

    assert.deepEqual(ended.map((process) => process.pid).sort(), [leader, groupChild, ...inOurGroup].sort());
    assert.match(ended.find((process) => process.pid === leader)?.command ?? "", /^sh -c sleep 60/);
    for (const pid of [leader, groupChild, ...inOurGroup]) assert.equal(isProcessAlive(pid), false, `${pid}`);
    for (const pid of [...unmarked, ...otherExecution]) assert.ok(isProcessAlive(pid), "left alone");
    assert.ok(ownChild.exitCode === null && ownChild.signalCode === null, "its own child is spared");
  });

  it("never ends the process that calls it, marked as it may be", () => {
    const script = `
      const { endLeftoverProcesses } = await import(${JSON.stringify(join(import.meta.dirname, "leftover-processes.ts"))});
      process.stdout.write(JSON.stringify({ self: process.pid, ended: endLeftoverProcesses(${JSON.stringify(execution)}) }));`;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      env: { ...process.env, [EXECUTION_MARK_ENV]: executionMarkEnv(execution)[EXECUTION_MARK_ENV] },
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { self: number; ended: { pid: number }[] };
    assert.ok(!result.ended.some((process) => process.pid === result.self));
  });
});
