import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { LOCK_INODE, moveRef, readRef } from "./move-ref.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);
const REF = "refs/heads/run/r1";

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => statSync(join(dir, name)).isFile())
    .sort();
}

describe("moveRef", () => {
  let gitDir: string;
  beforeEach(() => {
    gitDir = mkdtempSync(join(tmpdir(), "hankweave-move-ref-"));
    execFileSync("git", ["init", "-q", "--bare", gitDir]);
  });
  afterEach(() => rmSync(gitDir, { recursive: true, force: true }));

  it("creates a branch, moves it in place, and leaves no lock or temporary file", () => {
    const before = new Set(filesUnder(gitDir));
    moveRef(gitDir, REF, A, undefined);
    const inodeBefore = statSync(join(gitDir, REF)).ino;
    moveRef(gitDir, REF, B, A);
    assert.equal(readRef(gitDir, REF), B);
    assert.equal(readFileSync(join(gitDir, REF), "utf8"), `${B}\n`);
    assert.equal(statSync(join(gitDir, REF)).ino, inodeBefore, "moved in place");
    const added = filesUnder(gitDir).filter((name) => !before.has(name));
    assert.deepEqual(added, [LOCK_INODE, REF].sort());
    assert.equal(statSync(join(gitDir, LOCK_INODE)).nlink, 1, "no lock link left");
  });

  it("refuses while git's lock is held, and moves once it is released", () => {
    moveRef(gitDir, REF, A, undefined);
    writeFileSync(join(gitDir, `${REF}.lock`), "");
    assert.throws(() => moveRef(gitDir, REF, B, A), { name: "CheckpointError", code: "ref-locked" });
    assert.equal(readRef(gitDir, REF), A);
    rmSync(join(gitDir, `${REF}.lock`));
    moveRef(gitDir, REF, B, A);
    assert.equal(readRef(gitDir, REF), B);
  });

  it("refuses a branch that moved, and keeps what it names", () => {
    moveRef(gitDir, REF, A, undefined);
    assert.throws(() => moveRef(gitDir, REF, C, B), { name: "CheckpointError", code: "ref-moved" });
    assert.throws(() => moveRef(gitDir, REF, C, undefined), { name: "CheckpointError", code: "ref-moved" });
    assert.equal(readRef(gitDir, REF), A);
    assert.equal(statSync(join(gitDir, LOCK_INODE)).nlink, 1);
  });

  it("leaves the branch to git's own update-ref, which finds it as it expects", () => {
    const git = (...args: string[]): string =>
      execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", input: "" }).trim();
    const tree = git("mktree");
    const first = git("commit-tree", tree, "-m", "one");
    const second = git("commit-tree", tree, "-p", first, "-m", "two");
    moveRef(gitDir, REF, first, undefined);
    moveRef(gitDir, REF, second, first);
    assert.equal(git("rev-parse", REF), second);
    git("update-ref", REF, first, second);
    moveRef(gitDir, REF, second, first);
    assert.equal(git("rev-parse", REF), second);
    assert.equal(git("fsck", "--strict"), "");
  });

  it("moves a branch that is only in packed-refs by writing a loose one", () => {
    writeFileSync(join(gitDir, "packed-refs"), `# pack-refs with: peeled fully-peeled sorted\n${A} ${REF}\n`);
    moveRef(gitDir, REF, B, A);
    assert.equal(readFileSync(join(gitDir, REF), "utf8"), `${B}\n`);
    assert.deepEqual(
      filesUnder(gitDir).filter((name) => name.endsWith(".tmp") || name.endsWith(".lock")),
      [],
    );
  });

  it("takes a created lock where the store's lock inode cannot be linked", () => {
    mkdirSync(join(gitDir, LOCK_INODE)); // a directory: link() fails with EPERM
    moveRef(gitDir, REF, A, undefined);
    moveRef(gitDir, REF, B, A);
    assert.equal(readRef(gitDir, REF), B);
    assert.equal(filesUnder(gitDir).filter((name) => name.endsWith(".lock")).length, 0);
  });
});
