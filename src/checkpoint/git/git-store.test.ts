import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { codon, type Fixture, withFixture } from "../../testing/checkpoint-conformance/checkpoint-fixture.ts";
import { createGitCheckpointer, type GitCheckpointerOptions } from "./git-checkpointer.ts";
import { DEFAULT_IDENTITY, gitEnvironment } from "./git-environment.ts";

/** Git-specific behaviour beyond the conformance suite: the store's layout, config and process use. */

const gitDirOf = (fx: Fixture): string => join(fx.dirs.stateDir, "checkpoints", ".hankweavecheckpoints");

function open(fx: Fixture, extra: Partial<GitCheckpointerOptions> = {}) {
  return createGitCheckpointer({
    gitDir: gitDirOf(fx),
    workTree: fx.dirs.workTree,
    clock: fx.dirs.clock,
    ...extra,
  });
}

const make = (dirs: Fixture["dirs"]) =>
  createGitCheckpointer({
    gitDir: join(dirs.stateDir, "checkpoints", ".hankweavecheckpoints"),
    workTree: dirs.workTree,
    clock: dirs.clock,
  });

/** Plain git on the store, with the same isolation as the checkpointer. */
function rawGit(fx: Fixture, args: readonly string[]): string {
  const env = gitEnvironment({
    gitDir: gitDirOf(fx),
    workTree: fx.dirs.workTree,
    indexFile: join(gitDirOf(fx), "index"),
    identity: DEFAULT_IDENTITY,
    pathEnv: process.env.PATH ?? "",
  });
  return execFileSync("git", args, { cwd: fx.dirs.workTree, env, encoding: "utf8" });
}

test("the store is configured for cheap, quiet, isolated commits", () =>
  withFixture(make, async (fx) => {
    await open(fx).init();
    const config = (key: string): string => rawGit(fx, ["config", "--get", key]).trim();
    assert.deepEqual(
      [
        "gc.auto",
        "maintenance.auto",
        "core.splitIndex",
        "core.untrackedCache",
        "core.hooksPath",
        "commit.gpgSign",
      ].map(config),
      ["0", "false", "true", "true", "/dev/null", "false"],
    );
    assert.equal(rawGit(fx, ["config", "--local", "--get-all", "include.path"]), "hankweave.gitconfig\n");
    await open(fx).init();
    assert.equal(rawGit(fx, ["config", "--local", "--get-all", "include.path"]), "hankweave.gitconfig\n");
    assert.equal(
      rawGit(fx, ["log", "--format=%s|%T|%an", "main"]),
      "hankweave: initial checkpoint|4b825dc642cb6eb9a060e54bf8d69288fbee4904|hankweave\n",
    );
    assert.match(await readFile(join(gitDirOf(fx), "info", "exclude"), "utf8"), /^\/read_only_data_source$/m);
  }));

test("an identity with quotes, backslashes and newlines reads back exactly", () =>
  withFixture(make, async (fx) => {
    const identity = { name: 'Ada "the" \\ Lovelace\nII', email: "ada@example.invalid" };
    await open(fx, { identity }).init();
    assert.equal(rawGit(fx, ["config", "--get", "user.name"]), `${identity.name}\n`);
  }));

test("HEAD follows the active run and the history reads with plain git log", () =>
  withFixture(make, async (fx) => {
    const cp = open(fx);
    await cp.init();
    await cp.startRun("run-7");
    await cp.commit({ ...codon("plan", []), codonName: "Plan it" });
    assert.equal(rawGit(fx, ["symbolic-ref", "HEAD"]), "refs/heads/run/run-7\n");
    const body = rawGit(fx, ["log", "-1", "--format=%s%n%b"]);
    assert.match(body, /^completed: Plan it \(plan\)\n/);
    assert.match(body, /^Hankweave-Run-Id: "run-7"$/m);
  }));

test("a store left half-made by a crash is completed by init", () =>
  withFixture(make, async (fx) => {
    await mkdir(gitDirOf(fx), { recursive: true });
    rawGit(fx, ["init", "--quiet"]);
    rawGit(fx, ["config", "--local", "core.splitIndex", "false"]);
    const cp = open(fx);
    await cp.init();
    assert.equal(rawGit(fx, ["config", "--get", "core.splitIndex"]), "true\n");
    const { baseSha } = await cp.startRun("run-1");
    assert.equal(rawGit(fx, ["rev-parse", "main"]).trim(), baseSha);
  }));

test("every git process gets the extra environment (a run's writer marks its processes with it)", () =>
  withFixture(make, async (fx) => {
    // GIT_TRACE is a variable git itself acts on: where it writes shows the variable reached git.
    const trace = join(fx.dirs.stateDir, "git-trace.txt");
    const cp = open(fx, { extraEnv: { GIT_TRACE: trace } });
    await cp.init();
    await cp.startRun("run-1");
    // A new file is checked against .gitignore by a git process (the store itself is written natively).
    await fx.write("a.md", "a");
    await cp.commit(codon("c1", ["*.md"], { changedPaths: ["a.md"] }));
    assert.match(await readFile(trace, "utf8"), /trace: built-in: git ls-files/);
  }));

test("a commit with changed paths spawns git only to check new files against .gitignore", () =>
  withFixture(make, async (fx) => {
    const calls: string[][] = [];
    const cp = open(fx, { trace: (args) => calls.push([...args]) });
    await cp.init();
    await cp.startRun("run-1");
    await fx.write("a.md", "a");
    calls.length = 0;
    const first = await cp.commit(codon("c1", ["*.md"], { changedPaths: ["a.md", "scratch.tmp"] }));
    // The base tree is the initial checkpoint's, empty: nothing to list. a.md is new, so git says
    // whether .gitignore excludes it.
    assert.deepEqual(calls, [["ls-files", "-z", "--others", "--exclude-standard", "--", ":(literal)a.md"]]);
    calls.length = 0;
    await fx.write("a.md", "a, edited");
    const second = await cp.commit(codon("c2", ["*.md"], { changedPaths: ["a.md"] }));
    const third = await cp.commit(codon("c3", ["*.md"], { changedPaths: ["scratch.tmp"] }));
    await fx.remove("a.md");
    const fourth = await cp.commit(codon("c4", ["*.md"], { changedPaths: ["a.md"] }));
    assert.deepEqual(calls, [], "tracked files, seals and deletions need no git process");
    assert.deepEqual(await cp.filesAt(first.sha), ["a.md"]);
    assert.equal(rawGit(fx, ["cat-file", "blob", `${second.sha}:a.md`]), "a, edited");
    assert.equal(
      rawGit(fx, ["rev-parse", `${third.sha}^{tree}`]),
      rawGit(fx, ["rev-parse", `${second.sha}^{tree}`]),
    );
    assert.deepEqual(await cp.filesAt(fourth.sha), []);
    assert.equal(rawGit(fx, ["fsck", "--strict", "--no-dangling"]), "");
  }));

test("a long changed-paths list falls back to one scan of the globs", () =>
  withFixture(make, async (fx) => {
    const calls: string[][] = [];
    const cp = open(fx, { trace: (args) => calls.push([...args]), maxChangedPaths: 2 });
    await cp.init();
    await cp.startRun("run-1");
    for (const name of ["a.md", "b.md", "c.md"]) await fx.write(name, name);
    calls.length = 0;
    const commit = await cp.commit(codon("c1", ["*.md"], { changedPaths: ["a.md", "b.md", "c.md"] }));
    assert.ok(calls.some((args) => args[0] === "ls-files" && args.includes(":(glob)*.md")));
    assert.deepEqual(await cp.filesAt(commit.sha), ["a.md", "b.md", "c.md"]);
  }));

test("naming the work tree itself as changed scans the globs", () =>
  withFixture(make, async (fx) => {
    const calls: string[][] = [];
    const cp = open(fx, { trace: (args) => calls.push([...args]) });
    await cp.init();
    await cp.startRun("run-1");
    await fx.write("a.md", "a");
    calls.length = 0;
    const commit = await cp.commit(codon("c1", ["*.md"], { changedPaths: [fx.dirs.workTree] }));
    assert.ok(calls.some((args) => args[0] === "ls-files" && args.includes(":(glob)*.md")));
    assert.deepEqual(await cp.filesAt(commit.sha), ["a.md"]);
  }));

test("no hook runs, even one installed in the store", () =>
  withFixture(make, async (fx) => {
    const cp = open(fx);
    await cp.init();
    const marker = join(fx.root, "hook-ran");
    await mkdir(join(gitDirOf(fx), "hooks"), { recursive: true });
    const hook = join(gitDirOf(fx), "hooks", "reference-transaction");
    await writeFile(hook, `#!/bin/sh\ntouch ${marker}\n`);
    await chmod(hook, 0o755);
    await cp.startRun("run-1");
    await cp.commit(codon("c1", []));
    await assert.rejects(readFile(marker), { code: "ENOENT" });
  }));

test("checkpoints are byte-exact whatever .gitattributes asks", () =>
  withFixture(make, async (fx) => {
    const cp = open(fx);
    await cp.init();
    await cp.startRun("run-1");
    await fx.write(".gitattributes", "* text eol=crlf\n");
    await fx.write("a.txt", "one\ntwo\n");
    const target = await cp.commit(codon("c1", ["a.txt"]));
    assert.equal(rawGit(fx, ["cat-file", "blob", `${target.sha}:a.txt`]), "one\ntwo\n");
    await fx.write("a.txt", "changed");
    await cp.restore(target.sha);
    assert.equal(await fx.read("a.txt"), "one\ntwo\n");
  }));

test("a nested git repository is skipped, not recorded as a submodule", () =>
  withFixture(make, async (fx) => {
    const cp = open(fx);
    await cp.init();
    await cp.startRun("run-1");
    await fx.write("vendor/lib/file.c", "c");
    execFileSync("git", ["init", "--quiet", fx.abs("vendor/lib")], {
      env: { PATH: process.env.PATH ?? "", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    });
    await fx.write("main.c", "main");
    const commit = await cp.commit(codon("c1", ["**"]));
    assert.deepEqual(await cp.filesAt(commit.sha), ["main.c"]);
  }));

test("another writer moving the run's branch is detected", () =>
  withFixture(make, async (fx) => {
    const cp = open(fx);
    await cp.init();
    const { baseSha } = await cp.startRun("run-1");
    await cp.commit(codon("c1", []));
    rawGit(fx, ["update-ref", "refs/heads/run/run-1", baseSha]);
    await assert.rejects(cp.commit(codon("c2", [])), { name: "CheckpointError", code: "ref-moved" });
  }));

test("a missing git is reported as unavailable", () =>
  withFixture(make, async (fx) => {
    const cp = open(fx, { pathEnv: join(fx.root, "no-bin") });
    await assert.rejects(cp.init(), { name: "CheckpointError", code: "git-unavailable" });
  }));
