import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { moveRef, readRef } from "./move-ref.ts";
import { OpenRef } from "./open-ref.ts";

const REF = "refs/heads/run/r1";

describe("moveRef through an OpenRef", () => {
  let gitDir: string;
  let open: OpenRef;
  let commits: string[];
  const git = (...args: string[]): string =>
    execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", input: "" }).trim();
  beforeEach(() => {
    gitDir = mkdtempSync(join(tmpdir(), "hankweave-open-ref-"));
    git("init", "-q", "--bare");
    const tree = git("mktree");
    commits = [git("commit-tree", tree, "-m", "0")];
    for (let i = 1; i < 4; i++)
      commits.push(git("commit-tree", tree, "-p", commits[i - 1] ?? "", "-m", `${i}`));
    open = new OpenRef(gitDir, REF);
    moveRef(gitDir, REF, at(0), undefined, open);
  });
  afterEach(() => {
    open.close();
    rmSync(gitDir, { recursive: true, force: true });
  });
  const at = (i: number): string => commits[i] ?? "";

  it("moves the branch in place, leaves no lock, and git reads every move", () => {
    const inode = statSync(join(gitDir, REF)).ino;
    for (let i = 1; i < 4; i++) {
      moveRef(gitDir, REF, at(i), at(i - 1), open);
      assert.equal(git("rev-parse", REF), at(i));
    }
    assert.equal(statSync(join(gitDir, REF)).ino, inode, "the same file, written in place");
    assert.equal(existsSync(join(gitDir, `${REF}.lock`)), false);
    assert.equal(git("fsck", "--strict"), "");
  });

  it("follows a branch git replaced (update-ref renames a new file over it)", () => {
    moveRef(gitDir, REF, at(1), at(0), open);
    git("update-ref", REF, at(2), at(1));
    moveRef(gitDir, REF, at(3), at(2), open);
    assert.equal(git("rev-parse", REF), at(3));
    assert.equal(readFileSync(join(gitDir, REF), "utf8"), `${at(3)}\n`);
  });

  it("refuses a branch that moved under it, and keeps what it names", () => {
    moveRef(gitDir, REF, at(1), at(0), open);
    git("update-ref", REF, at(2), at(1));
    assert.throws(() => moveRef(gitDir, REF, at(3), at(1), open), {
      name: "CheckpointError",
      code: "ref-moved",
    });
    assert.equal(readRef(gitDir, REF), at(2));
  });

  it("moves a branch git packed (its loose file removed) by writing a loose one again", () => {
    git("pack-refs", "--all");
    assert.equal(existsSync(join(gitDir, REF)), false);
    moveRef(gitDir, REF, at(1), at(0), open);
    moveRef(gitDir, REF, at(2), at(1), open);
    assert.equal(git("rev-parse", REF), at(2));
  });
});
