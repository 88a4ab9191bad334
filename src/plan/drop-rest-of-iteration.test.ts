import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HankFile } from "../hank/schema/index.ts";
import { buildPlan } from "./build-plan.ts";
import { dropRestOfIteration } from "./drop-rest-of-iteration.ts";
import type { ExecutionPlan } from "./execution-plan.ts";
import { nextIteration } from "./next-iteration.ts";

const codon = (id: string) => ({
  id,
  name: id,
  model: "scripted",
  continuationMode: "continue-previous",
  promptText: "go",
});

function twoIterations(): ExecutionPlan {
  const loop = { type: "loop", id: "L", name: "L", terminateOn: { type: "contextExceeded" } };
  const hank = HankFile.parse({
    hank: [{ ...loop, codons: [codon("a"), codon("b"), codon("c")] }, codon("after")],
  });
  return nextIteration(buildPlan(hank), "L");
}

const ids = (plan: ExecutionPlan) => plan.entries.map((entry) => entry.runtimeId);

describe("dropRestOfIteration", () => {
  it("removes the codons of the iteration after the given one, and nothing else", () => {
    const plan = twoIterations();
    assert.deepEqual(ids(dropRestOfIteration(plan, "L", 1, "a#1")), ["a#0", "b#0", "c#0", "a#1", "after"]);
    assert.deepEqual(ids(dropRestOfIteration(plan, "L", 1, "b#1")), [
      "a#0",
      "b#0",
      "c#0",
      "a#1",
      "b#1",
      "after",
    ]);
  });

  it("removes nothing after the last codon and leaves the loop status alone", () => {
    const plan = twoIterations();
    const dropped = dropRestOfIteration(plan, "L", 1, "c#1");
    assert.deepEqual(ids(dropped), ids(plan));
    assert.deepEqual(dropped.loops, plan.loops);
  });

  it("refuses a codon outside the named iteration", () => {
    const plan = twoIterations();
    assert.throws(() => dropRestOfIteration(plan, "L", 1, "a#0"), /"a#0" is not in loop "L" iteration 1/);
    assert.throws(() => dropRestOfIteration(plan, "L", 1, "after"), /"after" is not in loop "L"/);
    assert.throws(() => dropRestOfIteration(plan, "L", 1, "ghost"), /"ghost" is not in loop "L"/);
  });
});
