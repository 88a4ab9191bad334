import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HankFile } from "../hank/schema/index.ts";
import { applyDecision } from "./apply-decision.ts";
import { buildPlan } from "./build-plan.ts";
import { findEntry, findPrevious, isPlanFinished, nextCodon, openLoops } from "./cursor.ts";
import type { ExecutionPlan } from "./execution-plan.ts";

const codon = (id: string) => ({
  id,
  name: id,
  model: "scripted",
  continuationMode: "continue-previous",
  promptText: "go",
});

/** A, loop L [x, y, z] cut by context at x#1, B. */
function cutPlan(): ExecutionPlan {
  const loop = { type: "loop", id: "L", name: "L", terminateOn: { type: "contextExceeded" } };
  const hank = HankFile.parse({
    hank: [codon("A"), { ...loop, codons: [codon("x"), codon("y"), codon("z")] }, codon("B")],
  });
  const expanded = applyDecision(buildPlan(hank), {
    kind: "next-iteration",
    loopId: "L",
    iteration: 0,
    next: 1,
  });
  return applyDecision(expanded, {
    kind: "loop-ends",
    loopId: "L",
    iteration: 1,
    afterRuntimeId: "x#1",
    cause: "context_exceeded",
    terminationReason: "context_exceeded",
    dropRemaining: true,
    runContinues: true,
  });
}

describe("plan cursor", () => {
  it("finds the first planned codon not finished, from a set or a list", () => {
    const plan = cutPlan();
    assert.equal(nextCodon(plan, [])?.runtimeId, "A");
    assert.equal(nextCodon(plan, ["A", "x#0"])?.runtimeId, "y#0");
    assert.equal(nextCodon(plan, new Set(["A", "x#0", "y#0", "z#0", "x#1"]))?.runtimeId, "B");
    assert.equal(nextCodon(plan, ["A", "x#0", "y#0", "z#0", "x#1", "B"]), undefined);
  });

  it("finds the previous codon, across iterations and out of a cut loop", () => {
    const plan = cutPlan();
    assert.equal(findPrevious(plan, "A"), undefined);
    assert.equal(findPrevious(plan, "x#0")?.runtimeId, "A");
    assert.equal(findPrevious(plan, "x#1")?.runtimeId, "z#0");
    assert.equal(findPrevious(plan, "B")?.runtimeId, "x#1");
    assert.throws(() => findPrevious(plan, "y#1"), /"y#1" is not in the execution plan/);
  });

  it("finds entries by runtime id", () => {
    assert.deepEqual(findEntry(cutPlan(), "x#1")?.loop, {
      loopId: "L",
      iteration: 1,
      position: 0,
      isLast: false,
    });
    assert.equal(findEntry(cutPlan(), "x"), undefined);
  });

  it("is finished only when every codon is done and every loop has ended", () => {
    const all = ["A", "x#0", "y#0", "z#0", "x#1", "B"];
    assert.equal(isPlanFinished(cutPlan(), all), true);
    assert.equal(isPlanFinished(cutPlan(), all.slice(0, 5)), false);
    const hank = HankFile.parse({
      hank: [
        { type: "loop", id: "L", name: "L", terminateOn: { type: "contextExceeded" }, codons: [codon("x")] },
      ],
    });
    assert.deepEqual(openLoops(buildPlan(hank)), ["L"]);
    assert.equal(isPlanFinished(buildPlan(hank), ["x#0"]), false);
  });
});
