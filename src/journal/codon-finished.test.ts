import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { finishedCodonIds, isCodonFinished } from "./codon-finished.ts";
import { type CodonRecord, emptyCodonRecord, initialRunState } from "./run-state.ts";

function record(id: string, fields: Partial<CodonRecord> = {}): CodonRecord {
  return { ...emptyCodonRecord(id), ...fields };
}

describe("isCodonFinished", () => {
  it("is true for completed, skipped, and failed with the failure ignored", () => {
    assert.equal(isCodonFinished(record("a", { status: "completed" })), true);
    assert.equal(isCodonFinished(record("a", { status: "skipped" })), true);
    assert.equal(isCodonFinished(record("a", { status: "failed", failureIgnored: true })), true);
  });

  it("is false for a failure that is not ignored and for every active status", () => {
    assert.equal(isCodonFinished(record("a", { status: "failed" })), false);
    for (const status of [
      "preparing",
      "starting",
      "initializing",
      "running",
      "completing-sentinels",
    ] as const)
      assert.equal(isCodonFinished(record("a", { status })), false, status);
  });
});

describe("finishedCodonIds", () => {
  it("collects the finished codons' runtime ids", () => {
    const state = {
      ...initialRunState(),
      codons: [
        record("a", { status: "completed" }),
        record("b", { status: "failed" }),
        record("c#0", { status: "failed", failureIgnored: true }),
        record("d", { status: "running" }),
      ],
    };
    assert.deepEqual([...finishedCodonIds(state)], ["a", "c#0"]);
  });
});
