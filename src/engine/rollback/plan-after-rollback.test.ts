import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { HankFile } from "../../hank/schema/index.ts";
import { finishedCodonIds } from "../../journal/index.ts";
import { journalLineOf } from "./journal-line.ts";
import { checkpointGlobsOf, codonsUndone, planAfterRollback } from "./plan-after-rollback.ts";
import { codonDone, iterationDone, journalOf, runStarted } from "./test-journal.ts";

const codon = (id: string, checkpointedFiles?: string[]) => ({
  id,
  name: id,
  model: "scripted",
  continuationMode: "fresh" as const,
  promptText: "@say hi",
  ...(checkpointedFiles !== undefined && { checkpointedFiles }),
});

const hank = {
  hank: [
    codon("a", ["a.md", "shared/**"]),
    {
      type: "loop",
      id: "L",
      name: "L",
      terminateOn: { type: "iterationLimit", limit: 3 },
      codons: [codon("x", ["x.md", "a.md"]), codon("y")],
    },
    codon("b", ["b.md"]),
  ],
} as unknown as HankFile;

const line = journalLineOf(
  journalOf([
    runStarted("run-1"),
    codonDone("a"),
    codonDone("x#0"),
    codonDone("y#0"),
    iterationDone("L", 0),
    codonDone("x#1"),
    codonDone("y#1"),
    iterationDone("L", 1),
    codonDone("x#2"),
    codonDone("y#2"),
    iterationDone("L", 2, true),
    codonDone("b"),
  ]),
);

describe("codonsUndone", () => {
  it("is every codon after the target, and the target too for start and rig-setup", () => {
    assert.deepEqual(codonsUndone(line.state, "y#1", "completed"), ["x#2", "y#2", "b"]);
    assert.deepEqual(codonsUndone(line.state, "y#1", "rig-setup"), ["y#1", "x#2", "y#2", "b"]);
    assert.deepEqual(codonsUndone(line.state, "b", "end"), []);
    assert.deepEqual(codonsUndone(line.state, "zzz", "completed"), []);
  });
});

describe("planAfterRollback", () => {
  it("keeps the loop iterations up to the target and plans the rest again", () => {
    const undone = codonsUndone(line.state, "x#1", "completed");
    const finished = new Set([...finishedCodonIds(line.state)].filter((id) => !undone.includes(id)));
    const plan = planAfterRollback(hank, line.reports, undone, finished);
    assert.deepEqual(
      plan.entries.map((e) => e.runtimeId),
      ["a", "x#0", "y#0", "x#1", "y#1", "b"],
    );
    assert.deepEqual(plan.loops.L, { iteration: 1, terminated: false });
  });

  it("keeps a loop ended when the target is its last codon", () => {
    const undone = codonsUndone(line.state, "y#2", "completed");
    const plan = planAfterRollback(hank, line.reports, undone, finishedCodonIds(line.state));
    assert.equal(plan.loops.L?.terminated, true);
    assert.deepEqual(
      plan.entries.map((e) => e.runtimeId),
      ["a", "x#0", "y#0", "x#1", "y#1", "x#2", "y#2", "b"],
    );
  });

  it("starts over from the hank's first plan when everything is undone", () => {
    const undone = codonsUndone(line.state, "a", "start");
    const plan = planAfterRollback(hank, line.reports, undone, new Set());
    assert.deepEqual(
      plan.entries.map((e) => e.runtimeId),
      ["a", "x#0", "y#0", "b"],
    );
  });
});

describe("checkpointGlobsOf", () => {
  it("collects every checkpointedFiles glob once, loops included", () => {
    assert.deepEqual(checkpointGlobsOf(hank), ["a.md", "shared/**", "x.md", "b.md"]);
  });
});
