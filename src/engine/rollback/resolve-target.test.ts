import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CheckpointRecord } from "../../checkpoint/index.ts";
import { resolveRollbackTarget, type TargetContext } from "./resolve-target.ts";
import type { RollbackTarget } from "./rollback-types.ts";
import { checkpoint } from "./test-journal.ts";

const planDone = checkpoint("run-1", "plan", "completed", "1a1a");
const editRig0 = checkpoint("run-1", "edit#0", "rig-setup", "2b2b");
const editDone0 = checkpoint("run-1", "edit#0", "completed", "3c3c");
const editRig1 = checkpoint("run-1", "edit#1", "rig-setup", "4d4d");
const editFail1 = checkpoint("run-1", "edit#1", "error", "5e5e");
const editRig1b = checkpoint("run-2", "edit#1", "rig-setup", "6f6f");
const editDone1 = checkpoint("run-2", "edit#1", "completed", "7a7a");
const review = checkpoint("run-2", "review", "completed", "7a7b");
const abandoned = checkpoint("run-0", "review", "completed", "9999");
const thread = [planDone, editRig0, editDone0, editRig1, editFail1, editRig1b, editDone1, review];
const context: TargetContext = { thread, all: [abandoned, ...thread] };

function pick(target: RollbackTarget): [string, string, string] | string {
  const resolved = resolveRollbackTarget(target, context);
  return resolved.ok
    ? [resolved.record.sha.slice(0, 4), resolved.codonId, resolved.checkpointType]
    : `${resolved.code}: ${resolved.message}`;
}

describe("resolveRollbackTarget", () => {
  it("finds a checkpoint by a unique prefix, any case", () => {
    assert.deepEqual(pick({ kind: "checkpoint", sha: "3C3C" }), ["3c3c", "edit#0", "completed"]);
    assert.deepEqual(pick({ kind: "checkpoint", sha: editDone1.sha }), ["7a7a", "edit#1", "completed"]);
  });

  it("lists the candidates of an ambiguous prefix", () => {
    const both = resolveRollbackTarget(
      { kind: "checkpoint", sha: "7a7a" },
      { thread, all: [...thread, checkpoint("run-2", "x", "completed", "7a7a1")] },
    );
    assert.ok(!both.ok);
    assert.equal(both.code, "ambiguous-target");
    assert.deepEqual(
      both.candidates?.map((c: CheckpointRecord) => c.sha.slice(0, 5)),
      ["7a7a0", "7a7a1"],
    );
    assert.equal(
      both.message,
      `Checkpoint prefix "7a7a" is ambiguous: it matches 2 checkpoints:\n  7a7a000  edit#1 completed  run run-2  2025-01-01T00:00:00.000Z\n  7a7a100  x completed  run run-2  2025-01-01T00:00:00.000Z\nGive more digits.`,
    );
  });

  it("refuses short, non-hex, unknown and abandoned checkpoints", () => {
    assert.equal(
      pick({ kind: "checkpoint", sha: "7a7" }),
      'bad-target: "7a7" is not a checkpoint id: give at least 4 of its hex digits.',
    );
    assert.equal(
      pick({ kind: "checkpoint", sha: "beefcafe" }),
      'unknown-target: No checkpoint matches "beefcafe".',
    );
    assert.equal(
      pick({ kind: "checkpoint", sha: "9999" }),
      "off-line: Checkpoint 9999000  review completed  run run-0  2025-01-01T00:00:00.000Z is not on the current line of this execution: a later rollback abandoned it.",
    );
  });

  it("picks a codon's checkpoint by type; a config id means its latest execution", () => {
    assert.deepEqual(pick({ kind: "codon", codonId: "edit#1", checkpointType: "error" }), [
      "5e5e",
      "edit#1",
      "error",
    ]);
    assert.deepEqual(pick({ kind: "codon", codonId: "edit#1", checkpointType: "rig-setup" }), [
      "6f6f",
      "edit#1",
      "rig-setup",
    ]);
    assert.deepEqual(pick({ kind: "codon", codonId: "edit", checkpointType: "end" }), [
      "7a7a",
      "edit#1",
      "completed",
    ]);
    assert.deepEqual(pick({ kind: "codon", codonId: "edit#0", checkpointType: "end" }), [
      "3c3c",
      "edit#0",
      "completed",
    ]);
  });

  it("resolves start to the earliest rig-setup, or to the checkpoint before the codon's first", () => {
    assert.deepEqual(pick({ kind: "codon", codonId: "edit#1", checkpointType: "start" }), [
      "4d4d",
      "edit#1",
      "rig-setup",
    ]);
    assert.deepEqual(pick({ kind: "codon", codonId: "review", checkpointType: "start" }), [
      "7a7a",
      "review",
      "start",
    ]);
    assert.equal(
      pick({ kind: "codon", codonId: "plan", checkpointType: "start" }),
      "unknown-target: Codon plan opens the current line and has no rig-setup checkpoint: there is no checkpoint before it. Start the execution anew instead.",
    );
  });

  it("says what a codon has when the type is missing, and which codons exist when the codon is unknown", () => {
    assert.equal(
      pick({ kind: "codon", codonId: "plan", checkpointType: "error" }),
      "unknown-target: Codon plan has no error checkpoint on the current line (it has: completed).",
    );
    assert.equal(
      pick({ kind: "codon", codonId: "ship", checkpointType: "completed" }),
      'unknown-target: Codon "ship" has no checkpoint on the current line (codons with checkpoints: plan, edit#0, edit#1, review).',
    );
  });

  it("finds the last success on the line", () => {
    assert.deepEqual(pick({ kind: "last-success" }), ["7a7b", "review", "completed"]);
    const none = resolveRollbackTarget({ kind: "last-success" }, { thread: [editRig0], all: [editRig0] });
    assert.equal(
      none.ok ? "" : none.message,
      "No codon has completed on the current line: there is no success to roll back to.",
    );
  });

  it("reads a typed name as last-success, a prefix or a codon, and refuses one that is both", () => {
    assert.deepEqual(pick({ kind: "named", name: "last-success" }), ["7a7b", "review", "completed"]);
    assert.deepEqual(pick({ kind: "named", name: "5e5e" }), ["5e5e", "edit#1", "error"]);
    assert.deepEqual(pick({ kind: "named", name: "edit" }), ["7a7a", "edit#1", "completed"]);
    assert.equal(pick({ kind: "named", name: "beef01" }), 'unknown-target: No checkpoint matches "beef01".');
    const cafe = checkpoint("run-1", "cafe", "completed", "cafe");
    const both = resolveRollbackTarget({ kind: "named", name: "cafe" }, { thread: [cafe], all: [cafe] });
    assert.equal(
      both.ok ? "" : `${both.code}: ${both.message}`,
      'ambiguous-target: "cafe" names both a checkpoint and a codon: give the codon with a checkpoint type, or more digits of the checkpoint id.',
    );
  });
});
