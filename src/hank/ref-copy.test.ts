import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { checkCopySource } from "./ref-copy.ts";

let hank: string;

/** Creates a FIFO with the system's mkfifo; false when the tool is missing or fails. */
function makeFifo(target: string): boolean {
  const result = spawnSync("mkfifo", [target]);
  return result.error === undefined && result.status === 0;
}

before(() => {
  hank = fs.mkdtempSync(path.join(os.tmpdir(), "hw-refcopy-"));
  fs.mkdirSync(path.join(hank, "assets", "b-sub"), { recursive: true });
  fs.writeFileSync(path.join(hank, "assets", "a.txt"), "a");
  fs.writeFileSync(path.join(hank, "assets", "b-sub", "c.txt"), "c");
  fs.writeFileSync(path.join(hank, "single.txt"), "single");
});

after(() => fs.rmSync(hank, { recursive: true, force: true }));

function rejected(from: string, options = {}) {
  const result = checkCopySource(hank, from, options);
  assert.equal(result.ok, false, `expected ${from} to be rejected`);
  if (result.ok) throw new Error("unreachable");
  return result;
}

describe("checkCopySource", () => {
  test("a clean tree and a single file are accepted", () => {
    const tree = checkCopySource(hank, "assets");
    assert.equal(tree.ok && tree.kind, "directory");
    const file = checkCopySource(hank, "./single.txt");
    assert.equal(file.ok && file.relativePath, "single.txt");
  });

  test("the hank directory itself", () => {
    for (const from of [".", "./", "assets/.."]) {
      const result = rejected(from);
      assert.equal(result.rule, "copy-from-hank-dir");
      assert.equal(
        result.message,
        `copy source "${from}" is the hank directory itself; move the files into a subdirectory and copy that`,
      );
    }
  });

  test("a missing source reads 'source path ... does not exist'", () => {
    const result = rejected("nope");
    assert.equal(result.rule, "not-found");
    assert.equal(result.message, 'source path "nope" does not exist');
  });

  test("ref rules apply to the source", () => {
    assert.equal(rejected("../elsewhere").rule, "escapes-hank-dir");
    assert.equal(
      rejected("/abs").message,
      'source path "/abs" is an absolute path; hank refs must be relative paths inside the hank directory',
    );
  });

  test("a symlink deep inside the tree is rejected with its path", () => {
    const dir = path.join(hank, "with-link", "inner");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "ok.txt"), "ok");
    fs.symlinkSync("/etc", path.join(dir, "zz-link"));
    const result = rejected("with-link");
    assert.equal(result.rule, "tree-symlink");
    assert.equal(result.entry, "with-link/inner/zz-link");
    assert.equal(
      result.message,
      'copy source "with-link" contains a symlink at "with-link/inner/zz-link"; symlinks are not allowed anywhere in a copied tree',
    );
  });

  test("a dangling symlink is rejected too (never followed)", () => {
    fs.mkdirSync(path.join(hank, "dangling"));
    fs.symlinkSync("does-not-exist", path.join(hank, "dangling", "gone"));
    assert.equal(rejected("dangling").entry, "dangling/gone");
  });

  test("the first violation in sorted order is reported", () => {
    fs.mkdirSync(path.join(hank, "two-links"));
    fs.symlinkSync("/etc", path.join(hank, "two-links", "b"));
    fs.symlinkSync("/etc", path.join(hank, "two-links", "a"));
    assert.equal(rejected("two-links").entry, "two-links/a");
  });

  test("excluded entries are neither copied nor scanned", () => {
    fs.mkdirSync(path.join(hank, "excluding", "node_modules"), { recursive: true });
    fs.symlinkSync("/etc", path.join(hank, "excluding", "node_modules", ".bin"));
    const exclude = (relative: string) => relative === "node_modules";
    assert.equal(checkCopySource(hank, "excluding", { exclude }).ok, true);
    assert.equal(rejected("excluding").entry, "excluding/node_modules/.bin");
  });

  test("a FIFO inside the tree is rejected with its path", (t) => {
    fs.mkdirSync(path.join(hank, "with-fifo", "sub"), { recursive: true });
    if (!makeFifo(path.join(hank, "with-fifo", "sub", "pipe"))) {
      t.skip("mkfifo is not available on this system");
      return;
    }
    const result = rejected("with-fifo");
    assert.equal(result.rule, "tree-special");
    assert.equal(
      result.message,
      'copy source "with-fifo" contains a FIFO, socket or device at "with-fifo/sub/pipe"; only regular files and directories can be copied',
    );
  });

  test("a FIFO named directly as the source is rejected", (t) => {
    if (!makeFifo(path.join(hank, "direct-pipe"))) {
      t.skip("mkfifo is not available on this system");
      return;
    }
    const result = rejected("direct-pipe");
    assert.equal(result.rule, "special-file");
    assert.equal(result.message, 'source path "direct-pipe" is not a regular file or directory');
  });
});
