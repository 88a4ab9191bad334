import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmod, readdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { codon, type Fixture, withFixture } from "../../testing/checkpoint-conformance/checkpoint-fixture.ts";
import { CONSOLIDATE_AT_CLOSE_OBJECTS } from "./consolidate-store.ts";
import { createGitCheckpointer, type GitCheckpointerOptions } from "./git-checkpointer.ts";
import { commitDateEnvironment, DEFAULT_IDENTITY, gitEnvironment } from "./git-environment.ts";
import { LARGE_FILE_BYTES } from "./stage-changes.ts";

/**
 * Commits written from this process (objects, trees, the commit, the branch) must be exactly what git's
 * own plumbing writes, leave a store `git fsck` accepts at every step, and stay compact.
 */

const gitDirOf = (fx: Fixture): string => join(fx.dirs.stateDir, "store");

function open(fx: Fixture, extra: Partial<GitCheckpointerOptions> = {}) {
  return createGitCheckpointer({
    gitDir: gitDirOf(fx),
    workTree: fx.dirs.workTree,
    clock: fx.dirs.clock,
    ...extra,
  });
}

const make = (dirs: Fixture["dirs"]) =>
  createGitCheckpointer({ gitDir: join(dirs.stateDir, "store"), workTree: dirs.workTree, clock: dirs.clock });

function rawGit(fx: Fixture, args: readonly string[], extraEnv: Record<string, string> = {}, input?: string) {
  const env = gitEnvironment({
    gitDir: gitDirOf(fx),
    workTree: fx.dirs.workTree,
    indexFile: join(fx.root, "plumbing-index"),
    identity: DEFAULT_IDENTITY,
    pathEnv: process.env.PATH ?? "",
  });
  return execFileSync("git", args, {
    cwd: fx.dirs.workTree,
    env: { ...env, ...extraEnv },
    encoding: "utf8",
    ...(input !== undefined && { input }),
  });
}

test("staged commits write the very trees and commits git's plumbing writes", () =>
  withFixture(make, async (fx) => {
    const cp = open(fx);
    await cp.init();
    await cp.startRun("run-1");
    const files = ["a-b", "a.b", "a/x.md", "a/y/z.md", "a0", "ü.md", "Zed", "exec.sh"];
    for (const path of files) await fx.write(path, `content of ${path}\n`);
    await chmod(fx.abs("exec.sh"), 0o755);
    await symlink("a.b", fx.abs("link"));
    fx.time += 61_500;
    const commit = await cp.commit(codon("c1", ["**"], { changedPaths: [...files, "link"] }));
    // The same files through git: update-index + write-tree on a separate index, then commit-tree.
    rawGit(fx, ["update-index", "--add", "-z", "--stdin"], {}, `${[...files, "link"].join("\0")}\0`);
    const tree = rawGit(fx, ["write-tree"]).trim();
    assert.equal(rawGit(fx, ["rev-parse", `${commit.sha}^{tree}`]).trim(), tree);
    const raw = rawGit(fx, ["cat-file", "commit", commit.sha]);
    const message = raw.slice(raw.indexOf("\n\n") + 2);
    const parent = rawGit(fx, ["rev-parse", `${commit.sha}^`]).trim();
    const again = rawGit(
      fx,
      ["commit-tree", tree, "-p", parent, "-F", "-"],
      commitDateEnvironment(fx.time),
      message,
    );
    assert.equal(again.trim(), commit.sha);
    assert.equal(rawGit(fx, ["fsck", "--strict", "--no-dangling"]), "");
  }));

test("edits, deletions and a file turning into a directory match a scan of the same tree", () =>
  withFixture(make, async (fx) => {
    const cp = open(fx);
    await cp.init();
    await cp.startRun("run-1");
    await fx.write("keep/a.md", "a");
    await fx.write("gone/b.md", "b");
    await fx.write("x", "file");
    await cp.commit(codon("c1", ["**"], { changedPaths: ["keep", "gone", "x"] }));
    await fx.write("keep/a.md", "a2");
    await fx.remove("gone");
    await fx.remove("x");
    await fx.write("x/inside.md", "now a directory");
    const staged = await cp.commit(codon("c2", ["**"], { changedPaths: ["keep/a.md", "gone/b.md", "x"] }));
    const scanned = await cp.commit(codon("c3", ["**"]));
    const treeOf = (sha: string) => rawGit(fx, ["rev-parse", `${sha}^{tree}`]).trim();
    assert.equal(treeOf(staged.sha), treeOf(scanned.sha));
    assert.deepEqual(await cp.filesAt(staged.sha), ["keep/a.md", "x/inside.md"]);
  }));

test("a file above the large-file size is stored through git, byte for byte", () =>
  withFixture(make, async (fx) => {
    const cp = open(fx);
    await cp.init();
    await cp.startRun("run-1");
    const big = Buffer.alloc(LARGE_FILE_BYTES + 10, 7);
    await writeFile(fx.abs("big.bin"), big);
    const commit = await cp.commit(codon("c1", ["*.bin"], { changedPaths: ["big.bin"] }));
    const id = rawGit(fx, ["rev-parse", `${commit.sha}:big.bin`]).trim();
    assert.equal(rawGit(fx, ["hash-object", "--no-filters", fx.abs("big.bin")]).trim(), id);
  }));

test("a lock left on the run's branch stops the commit and leaves the branch where it was", () =>
  withFixture(make, async (fx) => {
    const cp = open(fx);
    await cp.init();
    await cp.startRun("run-1");
    const first = await cp.commit(codon("c1", []));
    await writeFile(join(gitDirOf(fx), "refs", "heads", "run", "run-1.lock"), "");
    await assert.rejects(cp.commit(codon("c2", [])), { name: "CheckpointError", code: "ref-locked" });
    assert.equal(rawGit(fx, ["rev-parse", "refs/heads/run/run-1"]).trim(), first.sha);
    assert.equal(rawGit(fx, ["fsck", "--strict"]).includes("error"), false);
  }));

test("loose objects are packed in the background and at close: hundreds of checkpoints stay small", () =>
  withFixture(make, async (fx) => {
    const cp = open(fx, { consolidateEvery: 64 });
    await cp.init();
    await cp.startRun("run-1");
    let log = "";
    for (let i = 0; i < 300; i++) {
      log += `iteration ${i}\n`;
      await fx.write("log.txt", log);
      await cp.commit(codon(`c#${i}`, ["log.txt"], { changedPaths: ["log.txt"] }));
    }
    await cp.close();
    const counts = rawGit(fx, ["count-objects", "-v"]);
    const count = (key: string) => Number(counts.match(new RegExp(`^${key}: (\\d+)$`, "m"))?.[1]);
    assert.ok(count("count") < CONSOLIDATE_AT_CLOSE_OBJECTS, `loose objects left: ${count("count")}`);
    assert.ok(count("packs") <= 6, `packs: ${count("packs")}`);
    const objects = await filesUnder(join(gitDirOf(fx), "objects"));
    assert.ok(objects.length <= 50, `files in objects/: ${objects.length}`);
    assert.ok(count("size-pack") < 300, `packed KiB: ${count("size-pack")}`);
    assert.equal((await cp.list("run-1")).length, 300);
    assert.equal(rawGit(fx, ["fsck", "--strict", "--no-dangling"]), "");
  }));

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}
