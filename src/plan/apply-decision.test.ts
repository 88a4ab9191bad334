import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HankFile } from "../hank/schema/index.ts";
import { applyDecision } from "./apply-decision.ts";
import { buildPlan } from "./build-plan.ts";
import type { ExecutionPlan } from "./execution-plan.ts";

const codon = (id: string) => ({
  id,
  name: id,
  model: "scripted",
  continuationMode: "continue-previous",
  promptText: "go",
});

function loopPlan(): ExecutionPlan {
  const loop = { type: "loop", id: "L", name: "L", terminateOn: { type: "contextExceeded" } };
  return buildPlan(
    HankFile.parse({ hank: [{ ...loop, codons: [codon("a"), codon("b"), codon("c")] }, codon("z")] }),
  );
}

const ids = (plan: ExecutionPlan) => plan.entries.map((entry) => entry.runtimeId);

describe("applyDecision", () => {
  it("returns the same plan for continue, codon-fails and halt", () => {
    const plan = loopPlan();
    assert.equal(applyDecision(plan, { kind: "continue", runtimeId: "a#0" }), plan);
    assert.equal(applyDecision(plan, { kind: "halt", runtimeId: "a#0" }), plan);
    const fails = {
      kind: "codon-fails",
      runtimeId: "a#0",
      reason: "context-exceeded",
      message: "m",
    } as const;
    assert.equal(applyDecision(plan, fails), plan);
  });

  it("splices in the next iteration", () => {
    const plan = applyDecision(loopPlan(), { kind: "next-iteration", loopId: "L", iteration: 0, next: 1 });
    assert.deepEqual(ids(plan), ["a#0", "b#0", "c#0", "a#1", "b#1", "c#1", "z"]);
    assert.deepEqual(plan.loops.L, { iteration: 1, terminated: false });
  });

  it("drops the rest of the iteration and ends the loop", () => {
    const plan = applyDecision(loopPlan(), {
      kind: "loop-ends",
      loopId: "L",
      iteration: 0,
      afterRuntimeId: "a#0",
      cause: "budget",
      dropRemaining: true,
      runContinues: true,
    });
    assert.deepEqual(ids(plan), ["a#0", "z"]);
    assert.deepEqual(plan.loops.L, { iteration: 0, terminated: true, endCause: "budget" });
  });

  it("keeps the rest of the iteration when the loop ends without dropping", () => {
    const plan = applyDecision(loopPlan(), {
      kind: "loop-ends",
      loopId: "L",
      iteration: 0,
      afterRuntimeId: "a#0",
      cause: "failure",
      terminationReason: "failure",
      dropRemaining: false,
      runContinues: false,
    });
    assert.deepEqual(ids(plan), ["a#0", "b#0", "c#0", "z"]);
    assert.deepEqual(plan.loops.L, {
      iteration: 0,
      terminated: true,
      endCause: "failure",
      terminationReason: "failure",
    });
  });

  it("throws on a decision about another iteration than the current one", () => {
    const stale = { kind: "next-iteration", loopId: "L", iteration: 3, next: 4 } as const;
    assert.throws(
      () => applyDecision(loopPlan(), stale),
      /Stale decision: loop "L" is at iteration 0, not 3/,
    );
  });
});
