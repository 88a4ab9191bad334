import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmod, mkdir, readdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { codon, type Fixture, withFixture } from "../../testing/checkpoint-conformance/checkpoint-fixture.ts";
import { createGitCheckpointer } from "./git-checkpointer.ts";
import { DEFAULT_IDENTITY, gitEnvironment } from "./git-environment.ts";
import { PACK_AT_OBJECTS } from "./pack-sink.ts";

/**
 * A run's first scan records the whole selection into a pack: the same tree git's `add` of the same
 * files writes, no loose object per file, and a store `git fsck` accepts.
 */

const make = (dirs: Fixture["dirs"]) =>
  createGitCheckpointer({ gitDir: join(dirs.stateDir, "store"), workTree: dirs.workTree, clock: dirs.clock });

function rawGit(fx: Fixture, args: readonly string[], gitDir = join(fx.dirs.stateDir, "store")): string {
  const env = gitEnvironment({
    gitDir,
    workTree: fx.dirs.workTree,
    indexFile: join(fx.root, `index-of-${gitDir.length}`),
    identity: DEFAULT_IDENTITY,
    pathEnv: process.env.PATH ?? "",
  });
  return execFileSync("git", args, { cwd: fx.dirs.workTree, env, encoding: "utf8" });
}

async function looseObjects(gitDir: string): Promise<string[]> {
  const dirs = (await readdir(join(gitDir, "objects"))).filter((dir) => /^[0-9a-f]{2}$/.test(dir));
  const names = await Promise.all(dirs.map(async (dir) => readdir(join(gitDir, "objects", dir))));
  return names.flat();
}

async function fillWorkspace(fx: Fixture, files: number): Promise<void> {
  for (let i = 0; i < files; i++) await fx.write(`d${i % 7}/e${i % 3}/f${i}.txt`, `file ${i}\n`);
  await fx.write("same-1.txt", "same content\n");
  await fx.write("same-2.txt", "same content\n");
  await fx.write("tool.sh", "#!/bin/sh\n");
  await chmod(fx.abs("tool.sh"), 0o755);
  await symlink("tool.sh", fx.abs("link"));
  await fx.write(".gitignore", "*.log\nbuild/\n");
  await fx.write("debug.log", "ignored\n");
  await fx.write("build/out.txt", "ignored\n");
  await mkdir(fx.abs("empty-dir"));
}

/**
 * The tree git's own `add -A` writes for the same work tree, in a separate plain repository, less the
 * fixture's data link (a mandatory exclude of the checkpoints).
 */
function treeByGitAdd(fx: Fixture): string {
  const gitDir = join(fx.root, "reference-store");
  execFileSync("git", ["init", "-q", "--bare", gitDir]);
  rawGit(fx, ["add", "-A", "--", ".", ":(exclude)read_only_data_source"], gitDir);
  return rawGit(fx, ["write-tree"], gitDir).trim();
}

test("a first scan of many files writes the tree git's add writes, into a pack", () =>
  withFixture(make, async (fx) => {
    await fillWorkspace(fx, PACK_AT_OBJECTS * 3);
    const cp = make(fx.dirs);
    await cp.init();
    await cp.startRun("run-1");
    const gitDir = join(fx.dirs.stateDir, "store");
    const looseBefore = await looseObjects(gitDir);
    const first = await cp.commit(codon("c1", ["**"]));
    assert.equal(rawGit(fx, ["rev-parse", `${first.sha}^{tree}`]).trim(), treeByGitAdd(fx));
    // Only the commit object is new and loose: the blobs and trees went into a pack.
    assert.equal((await looseObjects(gitDir)).length, looseBefore.length + 1);
    assert.ok((await readdir(join(gitDir, "objects", "pack"))).some((name) => name.endsWith(".pack")));
    assert.equal(rawGit(fx, ["fsck", "--strict", "--no-dangling"]), "");
    // The tree held in memory serves the next, incremental commit.
    await writeFile(fx.abs("d0/e0/f0.txt"), "changed\n");
    const second = await cp.commit(codon("c2", ["**"], { changedPaths: ["d0/e0/f0.txt"] }));
    assert.equal(rawGit(fx, ["show", `${second.sha}:d0/e0/f0.txt`]), "changed\n");
    assert.equal(rawGit(fx, ["show", `${second.sha}:same-2.txt`]), "same content\n");
    await cp.close();
    assert.equal(rawGit(fx, ["fsck", "--strict", "--no-dangling"]), "");
  }));

test("a first scan of a few files writes them loose, and an empty selection records the empty tree", () =>
  withFixture(make, async (fx) => {
    await fx.write("a.md", "a\n");
    await fx.write("b/c.md", "c\n");
    const cp = make(fx.dirs);
    await cp.init();
    await cp.startRun("run-1");
    const none = await cp.commit(codon("c0", ["*.txt"]));
    assert.equal(rawGit(fx, ["ls-tree", "-r", "--name-only", none.sha]), "");
    await cp.startRun("run-2");
    const some = await cp.commit(codon("c1", ["**/*.md"]));
    assert.equal(rawGit(fx, ["ls-tree", "-r", "--name-only", some.sha]), "a.md\nb/c.md\n");
    const pack = await readdir(join(fx.dirs.stateDir, "store", "objects", "pack"));
    assert.deepEqual(pack, []);
    assert.equal(rawGit(fx, ["fsck", "--strict", "--no-dangling"]), "");
  }));
