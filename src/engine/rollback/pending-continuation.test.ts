import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { continuationIds, interruptedRollbackMessage, rollbackAftermath } from "./pending-continuation.ts";
import { ROLLBACK_ABANDONED_CODE } from "./rollback-types.ts";
import { codonDone, journalOf, rollbackStarted, rolledBack, runStarted } from "./test-journal.ts";

describe("rollbackAftermath", () => {
  it("names the continuation run of a completed rollback no run has started since", () => {
    const aftermath = rollbackAftermath(
      journalOf([
        runStarted("run-1"),
        codonDone("a"),
        rollbackStarted("a", "a".repeat(40)),
        rolledBack({ toRun: "run-2" }),
      ]),
    );
    assert.equal(aftermath.kind, "continuation");
    assert.equal(aftermath.kind === "continuation" ? aftermath.runId : "", "run-2");
  });

  it("reports a rollback that started and never completed", () => {
    const aftermath = rollbackAftermath(
      journalOf([runStarted("run-1"), rollbackStarted("b", "b".repeat(40))]),
    );
    assert.equal(aftermath.kind, "interrupted");
  });

  it("is none once a run has started, or without any rollback", () => {
    assert.equal(
      rollbackAftermath(journalOf([rolledBack({ toRun: "run-2" }), runStarted("run-2")])).kind,
      "none",
    );
    assert.equal(rollbackAftermath(journalOf([runStarted("run-1"), codonDone("a")])).kind, "none");
    assert.equal(rollbackAftermath([]).kind, "none");
    const abandoned = {
      type: "error" as const,
      data: { message: "Rollback to b abandoned", fatal: false, code: ROLLBACK_ABANDONED_CODE },
    };
    assert.equal(
      rollbackAftermath(journalOf([runStarted("run-1"), rollbackStarted("b", "b".repeat(40)), abandoned]))
        .kind,
      "none",
      "an abandoned rollback no longer blocks the run",
    );
  });
});

describe("interruptedRollbackMessage", () => {
  it("tells how to finish the rollback, or abandon it", () => {
    const data = {
      fromRun: "run-1",
      fromCodon: "c",
      toCodon: "a",
      toCheckpoint: "0123456789abcdef0123456789abcdef01234567",
      checkpointType: "completed",
      codonsToProcess: ["b", "c"],
    };
    assert.equal(
      interruptedRollbackMessage(data, "/x/exec"),
      [
        "A rollback to a (completed, checkpoint 0123456) was interrupted before it completed; the checkpointed files may be partly restored. Either:",
        "  finish it:   hankweave rollback 0123456789ab -e /x/exec",
        "  abandon it:  hankweave rollback --abandon -e /x/exec   (puts the files back to where the execution stood)",
        "then run the execution again.",
      ].join("\n"),
    );
  });
});

describe("continuationIds", () => {
  it("gives the pending id first, then the fallback's ids", () => {
    let n = 0;
    const ids = continuationIds("run-2", () => `id-${++n}`);
    assert.deepEqual([ids(), ids(), ids()], ["run-2", "id-1", "id-2"]);
    const plain = continuationIds(undefined, () => "fresh");
    assert.equal(plain(), "fresh");
  });
});
