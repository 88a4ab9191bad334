import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkpointThread, currentRunOf } from "./checkpoint-thread.ts";
import { checkpoint } from "./test-journal.ts";

const a1 = checkpoint("run-1", "a", "completed", "a1");
const b1 = checkpoint("run-1", "b", "completed", "b1");
const c1 = checkpoint("run-1", "c", "completed", "c1");
const b2 = checkpoint("run-2", "b", "completed", "b2");
const c3 = checkpoint("run-3", "c", "completed", "c3");
const all = [a1, b1, c1, b2, c3];

const shas = (records: readonly { sha: string }[]): string[] => records.map((r) => r.sha.slice(0, 2));

describe("checkpointThread", () => {
  it("appends each started run's own checkpoints", () => {
    const thread = checkpointThread(
      [
        { kind: "run", runId: "run-1" },
        { kind: "run", runId: "run-3" },
      ],
      all,
    );
    assert.deepEqual(shas(thread), ["a1", "b1", "c1", "c3"]);
  });

  it("cuts the thread back at a rollback's target, so the abandoned checkpoints are off the line", () => {
    const thread = checkpointThread(
      [
        { kind: "run", runId: "run-1" },
        { kind: "rollback", toRun: "run-2", checkpoint: a1.sha },
        { kind: "run", runId: "run-2" },
      ],
      all,
    );
    assert.deepEqual(shas(thread), ["a1", "b2"]);
  });

  it("is empty after a rollback to a checkpoint it does not hold (the initial commit)", () => {
    const thread = checkpointThread(
      [
        { kind: "run", runId: "run-1" },
        { kind: "rollback", toRun: "run-2", checkpoint: "f".repeat(40) },
      ],
      all,
    );
    assert.deepEqual(thread, []);
  });

  it("counts a run once even when the journal starts it twice", () => {
    const thread = checkpointThread(
      [
        { kind: "run", runId: "run-1" },
        { kind: "run", runId: "run-1" },
      ],
      all,
    );
    assert.deepEqual(shas(thread), ["a1", "b1", "c1"]);
  });
});

describe("currentRunOf", () => {
  it("is the latest run, or the continuation of the latest rollback, or nothing", () => {
    assert.equal(currentRunOf([{ kind: "run", runId: "run-1" }]), "run-1");
    assert.equal(
      currentRunOf([
        { kind: "run", runId: "run-1" },
        { kind: "rollback", toRun: "run-2", checkpoint: a1.sha },
      ]),
      "run-2",
    );
    assert.equal(currentRunOf([]), undefined);
  });
});
