import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { outputDirProblem } from "./output-dir-problem.ts";

describe("outputDirProblem (-o checked before the first codon)", () => {
  const root = mkdtempSync(join(tmpdir(), "hankweave-outdir-"));
  after(() => rmSync(root, { recursive: true, force: true }));
  writeFileSync(join(root, "afile"), "x");
  mkdirSync(join(root, "existing"));

  it("accepts an existing directory and a new one under a writable parent, creating nothing", () => {
    assert.equal(outputDirProblem(join(root, "existing")), undefined);
    assert.equal(outputDirProblem(join(root, "new", "deeper")), undefined);
    assert.deepEqual(readdirSync(root).sort(), ["afile", "existing"]);
  });

  it("names a file given as the directory, and a file in the way of a new one", () => {
    const fix = "Fix: pass -o a directory you can write to (it is created when missing).";
    assert.equal(
      outputDirProblem(join(root, "afile")),
      `The output directory ${join(root, "afile")} (-o) is a file, not a directory. ${fix}`,
    );
    assert.equal(
      outputDirProblem(join(root, "afile", "out")),
      `The output directory ${join(root, "afile", "out")} (-o) cannot be created: ${join(root, "afile")} is a file. ${fix}`,
    );
  });
});
