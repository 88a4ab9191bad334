import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { DEFAULT_IDENTITY, gitEnvironment } from "../../src/checkpoint/git/git-environment.ts";
import { createGitCheckpointer, recoverRunPacks } from "../../src/checkpoint/git/index.ts";
import { clearStaleGitLocks } from "../../src/runner/recovery/clear-stale-git-locks.ts";

/**
 * Crash safety of the git store: a process killed (SIGKILL) at an arbitrary moment while it checkpoints
 * and packs in the background leaves a store git accepts, with the run's branch on a complete commit
 * that is the last one acknowledged or the one in flight, and the next process, once it removed the
 * lock files the kill may have left (as every run's start does), continues the line. The run-pack
 * variant appends checkpoints to one pack sealed every few milliseconds: the kill leaves the branch on
 * the last seal, and recovery (`recoverRunPacks`, as every run's start runs it) seals what the pack
 * holds and moves the branch on, to the same place as the loose variant.
 */

const SCRIPT = join(import.meta.dirname, "commit-forever.ts");

for (const mode of ["loose", "pack"] as const) {
  test(`SIGKILL at arbitrary moments never leaves the store or the run's branch broken (${mode})`, () =>
    killRepeatedly(mode));
}

async function killRepeatedly(mode: "loose" | "pack"): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), "hankweave-kill-store-"));
  try {
    const gitDir = join(root, "store");
    const workTree = join(root, "agentRoot");
    await mkdir(workTree, { recursive: true });
    const git = (args: string[]) =>
      execFileSync("git", args, {
        cwd: workTree,
        encoding: "utf8",
        env: gitEnvironment({
          gitDir,
          workTree,
          indexFile: join(root, "test-index"),
          identity: DEFAULT_IDENTITY,
          pathEnv: process.env.PATH ?? "",
        }),
      });
    for (const commitsBeforeKill of [3, 20, 41]) {
      const acknowledged = await runAndKill(gitDir, workTree, commitsBeforeKill, mode);
      // A background repack the killed process started goes on without it (git makes that safe);
      // fsck run meanwhile would see loose objects vanish into the new pack between two of its reads.
      await orphanedGitEnds(gitDir);
      const fsck = git(["fsck", "--strict", "--no-dangling"]);
      assert.equal(fsck, "", `fsck after a kill at commit ${commitsBeforeKill}`);
      if (mode === "pack") {
        recoverRunPacks(gitDir);
        assert.equal(git(["fsck", "--strict", "--no-dangling"]), "", "fsck after recovery");
        assert.deepEqual(await readdir(join(gitDir, "hankweave-run-pack")), [], "no run pack is left");
      }
      const tip = git(["rev-parse", "refs/heads/run/run-1"]).trim();
      const last = acknowledged[acknowledged.length - 1];
      assert.ok(last !== undefined);
      const parentOfTip = git(["rev-parse", `${tip}^`]).trim();
      assert.ok(
        tip === last || parentOfTip === last,
        "the branch is on the last acknowledged commit or the next",
      );
      git(["cat-file", "-p", `${tip}:log.txt`]);
    }
    // The next process recovers as a run's start does (`recoverCrash`): a kill mid-update leaves a lock.
    clearStaleGitLocks(gitDir);
    const resumed = createGitCheckpointer({
      gitDir,
      workTree,
      clock: { now: () => Date.now() },
      runPack: mode === "pack",
    });
    await resumed.init();
    await resumed.startRun("run-1");
    const next = await resumed.commit({
      codonId: "after",
      codonName: "after",
      type: "completed",
      globs: ["log.txt"],
    });
    await resumed.close();
    assert.equal(
      git(["cat-file", "-p", `${next.sha}:log.txt`]),
      await readFile(join(workTree, "log.txt"), "utf8"),
    );
    assert.equal(git(["fsck", "--strict", "--no-dangling"]), "");
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Resolves once no process works on `gitDir` (found by its GIT_DIR in /proc; Linux only), within 60 s. */
async function orphanedGitEnds(gitDir: string): Promise<void> {
  const marker = `\0GIT_DIR=${gitDir}\0`;
  const working = async () => {
    for (const name of await readdir("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      const environ = await readFile(`/proc/${name}/environ`, "utf8").catch(() => "");
      if (`\0${environ}\0`.includes(marker)) return true;
    }
    return false;
  };
  const deadline = Date.now() + 60_000;
  while ((await working()) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
}

/** Runs the child until it acknowledged `count` commits, then SIGKILLs it; returns what it acknowledged. */
function runAndKill(gitDir: string, workTree: string, count: number, mode: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", SCRIPT, gitDir, workTree, "run-1", mode], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const acknowledged: string[] = [];
    let stderr = "";
    let pending = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      acknowledged.push(...lines);
      if (acknowledged.length >= count && child.exitCode === null) child.kill("SIGKILL");
    });
    child.on("close", (code, signal) => {
      if (signal === "SIGKILL") resolve(acknowledged);
      else reject(new Error(`commit loop exited ${code}: ${stderr}`));
    });
  });
}
