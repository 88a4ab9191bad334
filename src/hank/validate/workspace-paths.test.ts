import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { brief, codon, hankOf, loop, loopCodon, run } from "./test-kit.ts";

const copy = (from: string, to: string) => ({ type: "copy", copy: { from, to } });

describe("rig copy paths", () => {
  let dir = "";
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "hw-paths-"));
    fs.mkdirSync(path.join(dir, "assets", "deep"), { recursive: true });
    fs.writeFileSync(path.join(dir, "assets", "deep", "a.txt"), "a");
    fs.mkdirSync(path.join(dir, "linked"));
    fs.symlinkSync("/tmp", path.join(dir, "linked", "out"));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("accepts a source inside the hank directory and a target inside the workspace", () => {
    const report = run(
      hankOf([codon("a", { rigSetup: [copy("assets", "work/assets"), copy("assets/deep/a.txt", "a.txt")] })]),
      {
        hankDir: dir,
      },
    );
    assert.deepEqual(report.issues, []);
  });

  it("reports each broken source and target with the rig item number", () => {
    const rig = [
      copy("missing", "x"),
      copy(".", "y"),
      copy("linked", "z"),
      copy("assets", "/abs"),
      copy("assets", ".git/hooks"),
    ];
    const report = run(hankOf([codon("a", { rigSetup: rig })]), { hankDir: dir });
    assert.deepEqual(report.issues.map(brief), [
      {
        severity: "error",
        code: "ref-not-found",
        path: ["hank", 0, "rigSetup", 0, "copy", "from"],
        message: 'Rig setup item 1: source path "missing" does not exist',
      },
      {
        severity: "error",
        code: "ref-copy-from-hank-dir",
        path: ["hank", 0, "rigSetup", 1, "copy", "from"],
        message:
          'Rig setup item 2: copy source "." is the hank directory itself; move the files into a subdirectory and copy that',
      },
      {
        severity: "error",
        code: "ref-tree-symlink",
        path: ["hank", 0, "rigSetup", 2, "copy", "from"],
        message:
          'Rig setup item 3: copy source "linked" contains a symlink at "linked/out"; symlinks are not allowed anywhere in a copied tree',
      },
      {
        severity: "error",
        code: "copy-target-absolute",
        path: ["hank", 0, "rigSetup", 3, "copy", "to"],
        message: 'Target path "/abs" would write outside execution directory',
      },
      {
        severity: "error",
        code: "copy-target-reserved",
        path: ["hank", 0, "rigSetup", 4, "copy", "to"],
        message: 'Invalid target path ".git/hooks": ".git" would write into a git directory',
      },
    ]);
  });
});

describe("workspace globs", () => {
  it("rejects absolute, escaping and backslashed globs in every field", () => {
    const report = run(
      hankOf([
        codon("a", {
          checkpointedFiles: ["ok/*.md", "/etc/*"],
          archiveOnSuccess: ["../up"],
          outputFiles: [{ copy: ["a\\b"] }],
        }),
        loop("l", [loopCodon("b")], { archiveOnSuccess: ["x/../../y"] }),
      ]),
    );
    assert.deepEqual(report.issues.map(brief), [
      {
        severity: "error",
        code: "glob-absolute",
        path: ["hank", 0, "checkpointedFiles", 1],
        message: 'checkpointedFiles "/etc/*" is an absolute path; workspace paths are relative to agentRoot',
      },
      {
        severity: "error",
        code: "glob-parent-segment",
        path: ["hank", 0, "archiveOnSuccess", 0],
        message: 'archiveOnSuccess "../up" contains a ".." segment; workspace paths may not leave agentRoot',
      },
      {
        severity: "error",
        code: "glob-backslash",
        path: ["hank", 0, "outputFiles", 0, "copy", 0],
        message: 'outputFiles copy "a\\b" contains a backslash; use "/" as the only separator',
      },
      {
        severity: "error",
        code: "glob-parent-segment",
        path: ["hank", 1, "archiveOnSuccess", 0],
        message:
          'archiveOnSuccess "x/../../y" contains a ".." segment; workspace paths may not leave agentRoot',
      },
    ]);
  });
});
