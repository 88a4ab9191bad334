import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, describe, it } from "node:test";
import { createRepository } from "./create-repository.ts";

/** Every file and directory under `dir`, relative, with each file's content. */
function tree(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      const key = relative(dir, path);
      if (statSync(path).isDirectory()) {
        entries[`${key}/`] = "";
        walk(path);
      } else entries[key] = readFileSync(path, "utf8");
    }
  };
  walk(dir);
  return entries;
}

const git = (args: string[], gitDir: string, workTree: string) =>
  spawnSync("git", args, {
    env: { PATH: process.env.PATH, GIT_DIR: gitDir, GIT_WORK_TREE: workTree, GIT_CONFIG_NOSYSTEM: "1" },
    encoding: "utf8",
  });

describe("createRepository", { skip: process.platform !== "linux" }, () => {
  const base = mkdtempSync(join(tmpdir(), "hw-create-repo-"));
  after(() => rmSync(base, { recursive: true, force: true }));
  const layout = (name: string) => {
    const workTree = join(base, name, "agentRoot");
    mkdirSync(workTree, { recursive: true });
    return { gitDir: join(base, name, "store"), workTree };
  };

  it("makes what git init --template= makes, config and HEAD to the byte", () => {
    const ours = layout("ours");
    const theirs = layout("theirs");
    createRepository(ours.gitDir, ours.workTree);
    const init = git(
      ["init", "--quiet", "--template=", "--initial-branch=main"],
      theirs.gitDir,
      theirs.workTree,
    );
    assert.equal(init.status, 0, init.stderr);
    const expected = tree(theirs.gitDir);
    expected.config = (expected.config ?? "").replace(theirs.workTree, ours.workTree);
    assert.deepEqual(tree(ours.gitDir), expected);
  });

  it("is a repository git reads, on main", () => {
    const ours = layout("read");
    createRepository(ours.gitDir, ours.workTree);
    const head = git(["symbolic-ref", "HEAD"], ours.gitDir, ours.workTree);
    assert.equal(head.stdout.trim(), "refs/heads/main", head.stderr);
    assert.equal(
      git(["rev-parse", "--is-bare-repository"], ours.gitDir, ours.workTree).stdout.trim(),
      "false",
    );
  });

  it("leaves a store that has HEAD as it is", () => {
    const ours = layout("again");
    createRepository(ours.gitDir, ours.workTree);
    const config = join(ours.gitDir, "config");
    const edited = `${readFileSync(config, "utf8")}[include]\n\tpath = x\n`;
    writeFileSync(config, edited);
    createRepository(ours.gitDir, ours.workTree);
    assert.equal(readFileSync(config, "utf8"), edited);
  });
});
