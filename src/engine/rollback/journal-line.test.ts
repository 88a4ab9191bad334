import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { journalLineOf } from "./journal-line.ts";
import {
  codonDone,
  iterationDone,
  journalOf,
  lineBase,
  rollbackStarted,
  rolledBack,
  runCompleted,
  runStarted,
} from "./test-journal.ts";

describe("journalLineOf", () => {
  it("lists runs and rollbacks in journal order and tags loop reports with their codon", () => {
    const line = journalLineOf(
      journalOf([
        runStarted("run-1"),
        codonDone("a"),
        codonDone("x#0"),
        iterationDone("L", 0),
        codonDone("x#1"),
        iterationDone("L", 1, true),
        runCompleted("run-1"),
      ]),
    );
    assert.deepEqual(line.steps, [{ kind: "run", runId: "run-1" }]);
    assert.deepEqual(
      line.reports.map((r) => [r.report.loopId, r.report.iteration, r.report.isFinal, r.producer]),
      [
        ["L", 0, false, "x#0"],
        ["L", 1, true, "x#1"],
      ],
    );
    assert.deepEqual(line.reports[1]?.report, {
      loopId: "L",
      iteration: 1,
      isFinal: true,
      terminationReason: "iteration_limit",
    });
    assert.deepEqual(
      line.state.codons.map((c) => c.id),
      ["a", "x#0", "x#1"],
    );
    assert.equal(line.interrupted, null);
  });

  it("drops the reports of the codons a rollback undid, and keeps the others", () => {
    const line = journalLineOf(
      journalOf([
        runStarted("run-1"),
        codonDone("x#0"),
        iterationDone("L", 0),
        codonDone("x#1"),
        iterationDone("L", 1),
        codonDone("x#2"),
        iterationDone("L", 2, true),
        runCompleted("run-1"),
        rolledBack({ toRun: "run-2", codonId: "x#0", checkpoint: "a".repeat(40) }),
      ]),
    );
    assert.deepEqual(line.steps, [
      { kind: "run", runId: "run-1" },
      { kind: "rollback", toRun: "run-2", checkpoint: "a".repeat(40) },
    ]);
    assert.deepEqual(
      line.reports.map((r) => r.producer),
      ["x#0"],
    );
    assert.deepEqual(
      line.state.codons.map((c) => c.id),
      ["x#0"],
    );
  });

  it("remembers a rollback that started without completing, until a rollback or a run follows", () => {
    const started = journalLineOf(
      journalOf([runStarted("run-1"), codonDone("a"), rollbackStarted("a", "b".repeat(40))]),
    );
    assert.equal(started.interrupted?.toCodon, "a");
    const redone = journalLineOf(
      journalOf([runStarted("run-1"), rollbackStarted("a", "b".repeat(40)), rolledBack({ toRun: "run-2" })]),
    );
    assert.equal(redone.interrupted, null);
    const ran = journalLineOf(journalOf([rollbackStarted("a", "b".repeat(40)), runStarted("run-2")]));
    assert.equal(ran.interrupted, null);
  });

  it("records where a run's line starts when the journal names it, once per run", () => {
    const line = journalLineOf(
      journalOf([
        runStarted("run-1"),
        lineBase("run-1", "a".repeat(40)),
        lineBase("run-1", "b".repeat(40)),
        runStarted("run-2"),
        lineBase("run-9", "c".repeat(40)),
      ]),
    );
    assert.deepEqual(line.steps, [
      { kind: "run", runId: "run-1", base: "a".repeat(40) },
      { kind: "run", runId: "run-2" },
    ]);
  });
});
