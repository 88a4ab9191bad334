import assert from "node:assert/strict";
import { test } from "node:test";
import { archiveDirOf, archiveName } from "./archive-dir.ts";

test("archive directories outside loops, inside loops and for a loop's own archive", () => {
  assert.equal(archiveDirOf({ kind: "codon", codonId: "build" }), "rigArchive/build");
  assert.equal(
    archiveDirOf({ kind: "loop-codon", loopId: "revise", iteration: 0, runtimeId: "edit#0" }),
    "rigArchive/revise-0/edit-0",
  );
  assert.equal(
    archiveDirOf({ kind: "loop-codon", loopId: "revise", iteration: 12, runtimeId: "edit#12" }),
    "rigArchive/revise-12/edit-12",
  );
  assert.equal(archiveDirOf({ kind: "loop", loopId: "revise" }), "rigArchive/revise-loop");
});

test("an id can never name a path: separators, control characters and dot names are neutralized", () => {
  assert.equal(archiveName("../../.hankweave"), ".._.._.hankweave");
  assert.equal(archiveName("a\\b\nc"), "a_b_c");
  assert.equal(archiveName(".."), "_..");
  assert.equal(archiveName("."), "_.");
  assert.equal(archiveName(""), "_");
  assert.equal(archiveName("ünï côde#3"), "ünï côde-3");
});
