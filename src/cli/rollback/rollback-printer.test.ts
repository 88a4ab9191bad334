import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sampleJournaled } from "../../journal/index.ts";
import { rollbackLine } from "./rollback-printer.ts";

describe("rollbackLine", () => {
  it("prints one line per rollback event", () => {
    assert.equal(
      rollbackLine(sampleJournaled("rollback.started")),
      "> rollback of run run-1 to plan (completed) at 0123456; to run again: review, edit#0",
    );
    assert.equal(rollbackLine(sampleJournaled("rollback.progress")), "  [1/3] Resetting work tree");
    assert.equal(
      rollbackLine(sampleJournaled("rollback.archiveRestore")),
      "  archived files restored: notes.md",
    );
    assert.equal(
      rollbackLine(sampleJournaled("rollback.completed")),
      "✓ Rolled back to plan (completed) at 0123456; run run-2 continues from there",
    );
    assert.equal(rollbackLine(sampleJournaled("codon.started")), undefined);
  });
});
