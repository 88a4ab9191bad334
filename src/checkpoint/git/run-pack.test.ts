import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { CheckpointError } from "../checkpoint-error.ts";
import { createGitCheckpointer, type GitCheckpointer } from "./git-checkpointer.ts";
import { recoverRunPacks } from "./recover-run-packs.ts";
import { RUN_PACK_DIR, runPackPath } from "./run-pack.ts";

/**
 * The run pack's visibility contract and its recovery, seen by plain git in another process: the
 * writer sees its checkpoints at once; git elsewhere sees them once sealed (a boundary or the timer);
 * a killed writer's checkpoints (torn tail included) are sealed by the next holder's recovery.
 */
/** Resolves once `done()` holds, polling every 10 ms; fails after 5 s. */
async function waitFor(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!done()) {
    if (Date.now() > deadline) assert.fail("not within 5 s");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("run pack", () => {
  let root: string;
  let gitDir: string;
  let workTree: string;
  const open: GitCheckpointer[] = [];

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "hankweave-run-pack-"));
    gitDir = join(root, "store");
    workTree = join(root, "work");
    mkdirSync(workTree);
  });
  afterEach(async () => {
    for (const checkpointer of open.splice(0)) checkpointer.release();
    rmSync(root, { recursive: true, force: true });
  });

  const writer = async (sealLagMs = 60_000): Promise<GitCheckpointer> => {
    const checkpointer = createGitCheckpointer({
      gitDir,
      workTree,
      clock: { now: () => Date.now() },
      runPack: true,
      sealLagMs,
    });
    open.push(checkpointer);
    await checkpointer.init();
    await checkpointer.startRun("run-1");
    return checkpointer;
  };
  const commit = async (checkpointer: GitCheckpointer, line: string) => {
    appendFileSync(join(workTree, "log.txt"), `${line}\n`);
    return checkpointer.commit({
      codonId: line,
      codonName: line,
      type: "completed",
      globs: ["log.txt"],
      changedPaths: ["log.txt"],
    });
  };
  /** Plain git, as a person runs it from another shell: only the store named. */
  const git = (args: string[]): string =>
    execFileSync("git", [`--git-dir=${gitDir}`, ...args], { encoding: "utf8" }).trim();
  const branchTip = () => git(["rev-parse", "refs/heads/run/run-1"]);

  it("shows other processes the line at the last seal; flush seals at once", async () => {
    const cp = await writer();
    const base = branchTip();
    const one = await commit(cp, "one");
    const two = await commit(cp, "two");
    assert.equal(branchTip(), base, "unsealed checkpoints are not on the branch yet");
    assert.deepEqual(
      (await cp.list("run-1")).map((record) => record.sha),
      [one.sha, two.sha],
      "the writer sees its own checkpoints",
    );
    assert.equal(branchTip(), two.sha, "list sealed the pack");
    const three = await commit(cp, "three");
    await cp.flush();
    assert.equal(branchTip(), three.sha);
    assert.equal(git(["cat-file", "-p", `${three.sha}:log.txt`]), "one\ntwo\nthree");
    assert.equal(git(["fsck", "--strict", "--no-dangling"]), "");
  });

  it("seals on its timer, without any call, within the lag", async () => {
    const cp = await writer(30);
    const made = await commit(cp, "one");
    await waitFor(() => branchTip() === made.sha);
    assert.deepEqual(readdirSync(join(gitDir, RUN_PACK_DIR)), [], "the sealed file left the run-pack folder");
  });

  it("a seal that fails leaves the checkpoints in the file and is tried again; close never rejects", async () => {
    const packDir = join(gitDir, "objects", "pack");
    const breakPackDir = () => {
      renameSync(packDir, `${packDir}.away`);
      writeFileSync(packDir, "not a directory");
    };
    const mendPackDir = () => {
      rmSync(packDir);
      renameSync(`${packDir}.away`, packDir);
    };
    const cp = await writer(20);
    const base = branchTip();
    breakPackDir();
    const one = await commit(cp, "one");
    await new Promise((done) => setTimeout(done, 150));
    assert.equal(branchTip(), base, "the seal failed");
    assert.ok(existsSync(runPackPath(gitDir, "run-1")), "the checkpoint stays in the run's pack");
    mendPackDir();
    await waitFor(() => branchTip() === one.sha);
    breakPackDir();
    const two = await commit(cp, "two");
    await cp.close();
    mendPackDir();
    assert.equal(branchTip(), one.sha, "close could not seal");
    assert.deepEqual(recoverRunPacks(gitDir), ["run-1"]);
    assert.equal(branchTip(), two.sha, "recovery sealed what close could not");
    assert.equal(git(["fsck", "--strict", "--no-dangling"]), "");
  });

  it("recovery seals what a killed writer left, a torn last entry cut off", async () => {
    const cp = await writer();
    await commit(cp, "one");
    const two = await commit(cp, "two");
    cp.release();
    // A kill inside the next checkpoint's write: the start of an entry and no more.
    appendFileSync(runPackPath(gitDir, "run-1"), Buffer.from([0x35, 0x8f, 0x01, 0x78, 0x9c]));
    assert.deepEqual(recoverRunPacks(gitDir), ["run-1"]);
    assert.equal(branchTip(), two.sha);
    assert.equal(existsSync(runPackPath(gitDir, "run-1")), false);
    assert.equal(git(["fsck", "--strict", "--no-dangling"]), "");
    const next = await writer();
    const three = await commit(next, "three");
    await next.close();
    assert.equal(git(["rev-parse", `${three.sha}^`]), two.sha, "the line goes on from the recovered tip");
  });

  it("a writer whose pack another holder recovered stops instead of writing over the store", async () => {
    const first = await writer();
    const one = await commit(first, "one");
    const second = await writer();
    assert.equal(branchTip(), one.sha, "the second holder's start sealed the first one's checkpoints");
    writeFileSync(join(workTree, "log.txt"), "changed\n");
    await assert.rejects(
      commit(first, "late"),
      (error: unknown) => error instanceof CheckpointError && error.code === "run-pack-taken",
    );
    const two = await commit(second, "two");
    await second.close();
    await first.close();
    assert.equal(branchTip(), two.sha);
    assert.equal(git(["fsck", "--strict", "--no-dangling"]), "");
  });
});
