import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkpointThread, currentRunOf, restartPoint } from "./checkpoint-thread.ts";
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

describe("checkpointThread with named bases", () => {
  it("cuts the thread back to a run's base, so checkpoints a crash abandoned are off the line", () => {
    const orphan = checkpoint("run-1", "c", "completed", "c9");
    const thread = checkpointThread(
      [
        { kind: "run", runId: "run-1", base: "f".repeat(40) },
        { kind: "run", runId: "run-2", base: b1.sha },
      ],
      [a1, b1, orphan, c3, checkpoint("run-2", "c", "completed", "c2")],
    );
    assert.deepEqual(shas(thread), ["a1", "b1", "c2"]);
  });
});

describe("restartPoint", () => {
  const root = "f".repeat(40);
  const done = (ids: string[]) => (id: string) => ids.includes(id);

  it("drops the trailing checkpoints of unfinished codons: a rig-setup and an unjournaled completion", () => {
    const cRig = checkpoint("run-1", "c", "rig-setup", "c7");
    const cDone = checkpoint("run-1", "c", "completed", "c8");
    const point = restartPoint(
      [{ kind: "run", runId: "run-1", base: root }],
      [a1, b1, cRig, cDone],
      done(["a", "b"]),
    );
    assert.deepEqual(point, { kind: "checkpoint", sha: b1.sha, abandoned: [cRig, cDone] });
  });

  it("is the line's base when no finished codon has a checkpoint yet", () => {
    const aRig = checkpoint("run-1", "a", "rig-setup", "a7");
    const point = restartPoint([{ kind: "run", runId: "run-1", base: root }], [aRig], done([]));
    assert.deepEqual(point, { kind: "checkpoint", sha: root, abandoned: [aRig] });
  });

  it("never reaches back past the start of the current generation (a fresh run from the first codon)", () => {
    const aRig = checkpoint("run-2", "a", "rig-setup", "a7");
    const point = restartPoint(
      [
        { kind: "run", runId: "run-1", base: root },
        { kind: "run", runId: "run-2", base: b1.sha, fresh: true },
      ],
      [a1, b1, aRig],
      done([]),
    );
    assert.deepEqual(point, { kind: "checkpoint", sha: b1.sha, abandoned: [aRig] });
  });

  it("is unknown when a finished codon's end was never checkpointed, or the line's start is unknown", () => {
    const bRig = checkpoint("run-1", "b", "rig-setup", "b7");
    const unsafe = restartPoint([{ kind: "run", runId: "run-1", base: root }], [a1, bRig], done(["a", "b"]));
    assert.equal(unsafe.kind, "unknown");
    const noBase = restartPoint([{ kind: "run", runId: "run-1" }], [a1], done([]));
    assert.equal(noBase.kind, "unknown");
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
