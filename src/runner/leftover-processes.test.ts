import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { isProcessAlive } from "../workspace/lock/index.ts";
import { EXECUTION_MARK_ENV, endLeftoverProcesses, markedEnv } from "./leftover-processes.ts";

const root = mkdtempSync(join(tmpdir(), "hw-leftovers-"));
const execution = join(root, "exec");
const other = join(root, "other");

function sleeper(env: NodeJS.ProcessEnv, detached: boolean): ChildProcess {
  return spawn("sleep", ["60"], { env, detached, stdio: "ignore" });
}

function gone(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null || !isProcessAlive(child.pid ?? 0);
}

async function settled(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
}

describe("endLeftoverProcesses", () => {
  const started: ChildProcess[] = [];
  after(() => {
    for (const child of started) child.kill("SIGKILL");
    rmSync(root, { recursive: true, force: true });
  });

  it("ends the processes carrying the execution's mark, group leaders with their groups, and no other", async () => {
    const marked = markedEnv(process.env, execution) as NodeJS.ProcessEnv;
    // A rig command as a run starts it: leader of its own group, with a child of its own in the group.
    const leader = spawn("sh", ["-c", "sleep 60 & echo $!; wait"], {
      env: marked,
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const [line] = (await once(leader.stdout, "data")) as [Buffer];
    const grandchild = Number(line.toString().trim());
    // Marked but in this process's own group: ended alone, the group (this test runner's) is spared.
    const inOurGroup = sleeper(marked, false);
    const unmarked = sleeper(process.env, true);
    const otherExecution = sleeper(markedEnv(process.env, other) as NodeJS.ProcessEnv, true);
    started.push(leader, inOurGroup, unmarked, otherExecution);

    const ended = endLeftoverProcesses(execution);

    const endedPids = ended.map((process) => process.pid).sort();
    assert.deepEqual(endedPids, [leader.pid, grandchild, inOurGroup.pid].sort());
    assert.match(ended.find((process) => process.pid === leader.pid)?.command ?? "", /^sh -c sleep 60/);
    await Promise.all([settled(leader), settled(inOurGroup)]);
    assert.ok(gone(leader) && gone(inOurGroup));
    assert.equal(isProcessAlive(grandchild), false, "the leader's group went with it");
    assert.ok(!gone(unmarked), "a process without the mark is left alone");
    assert.ok(!gone(otherExecution), "another execution's process is left alone");
  });

  it("never ends the process that calls it, marked as it may be", () => {
    const script = `
      const { endLeftoverProcesses } = await import(${JSON.stringify(join(import.meta.dirname, "leftover-processes.ts"))});
      process.stdout.write(JSON.stringify({ self: process.pid, ended: endLeftoverProcesses(${JSON.stringify(execution)}) }));`;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      env: { ...process.env, [EXECUTION_MARK_ENV]: markedEnv({}, execution)[EXECUTION_MARK_ENV] },
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { self: number; ended: { pid: number }[] };
    assert.ok(!result.ended.some((process) => process.pid === result.self));
  });
});
