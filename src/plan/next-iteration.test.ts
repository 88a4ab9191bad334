import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HankFile } from "../hank/schema/index.ts";
import { buildPlan } from "./build-plan.ts";
import type { ExecutionPlan } from "./execution-plan.ts";
import { endLoop } from "./loop-status.ts";
import { nextIteration } from "./next-iteration.ts";

const codon = (id: string) => ({
  id,
  name: id,
  model: "scripted",
  continuationMode: "fresh",
  promptText: "go",
});

function scenarioPlan(): ExecutionPlan {
  const loop = { type: "loop", id: "L", name: "L", terminateOn: { type: "iterationLimit", limit: 3 } };
  return buildPlan(
    HankFile.parse({ hank: [codon("A"), { ...loop, codons: [codon("x"), codon("y")] }, codon("B")] }),
  );
}

const ids = (plan: ExecutionPlan) => plan.entries.map((entry) => entry.runtimeId);

describe("nextIteration", () => {
  it("splices iteration N+1 right after the last codon of iteration N", () => {
    const once = nextIteration(scenarioPlan(), "L");
    assert.deepEqual(ids(once), ["A", "x#0", "y#0", "x#1", "y#1", "B"]);
    assert.deepEqual(once.entries[3], {
      runtimeId: "x#1",
      configId: "x",
      topIndex: 1,
      loop: { loopId: "L", iteration: 1, position: 0, isLast: false },
    });
    assert.deepEqual(once.loops.L, { iteration: 1, terminated: false });
    assert.deepEqual(ids(nextIteration(once, "L")), ["A", "x#0", "y#0", "x#1", "y#1", "x#2", "y#2", "B"]);
  });

  it("leaves the plan it was given unchanged", () => {
    const plan = scenarioPlan();
    const before = JSON.stringify(plan);
    nextIteration(plan, "L");
    assert.equal(JSON.stringify(plan), before);
  });

  it("refuses a terminated loop, an unknown loop and a cut iteration", () => {
    const plan = scenarioPlan();
    assert.throws(() => nextIteration(endLoop(plan, "L", "iteration_limit"), "L"), /has terminated/);
    assert.throws(() => nextIteration(plan, "nope"), /"nope" is not in the execution plan/);
    const cut = { ...plan, entries: plan.entries.filter((entry) => entry.runtimeId !== "y#0") };
    assert.throws(() => nextIteration(cut, "L"), /iteration 0 is not whole/);
  });

  it("refuses to create a runtime id the plan already holds", () => {
    const plan = buildPlan(
      HankFile.parse({
        hank: [
          {
            type: "loop",
            id: "L",
            name: "L",
            terminateOn: { type: "contextExceeded" },
            codons: [codon("x")],
          },
          codon("x#1"),
        ],
      }),
    );
    assert.throws(() => nextIteration(plan, "L"), /Duplicate codon IDs after loop expansion: x#1/);
  });
});

describe("nextIteration's duplicate check", () => {
  const loopEntry = (id: string, iteration: number, position: number, isLast: boolean) => ({
    runtimeId: `${id}#${iteration}`,
    configId: id,
    topIndex: 1,
    loop: { loopId: "L", iteration, position, isLast },
  });

  it("finds a clashing codon placed before the loop", () => {
    const plan = buildPlan(
      HankFile.parse({
        hank: [
          codon("x#1"),
          {
            type: "loop",
            id: "L",
            name: "L",
            terminateOn: { type: "contextExceeded" },
            codons: [codon("x")],
          },
        ],
      }),
    );
    assert.throws(() => nextIteration(plan, "L"), /Duplicate codon IDs after loop expansion: x#1/);
  });

  it("checks every entry when the loop's block does not start at iteration 0", () => {
    const plan: ExecutionPlan = {
      version: 1,
      entries: [
        { runtimeId: "x#2", configId: "x#2", topIndex: 0 },
        loopEntry("x", 1, 0, false),
        loopEntry("y", 1, 1, true),
      ],
      loops: { L: { iteration: 1, terminated: false } },
    };
    assert.throws(() => nextIteration(plan, "L"), /Duplicate codon IDs after loop expansion: x#2/);
  });

  it("expands the 500th iteration of a long plan to the same entries as a short one would", () => {
    let plan = scenarioPlan();
    plan = { ...plan, loops: { L: { iteration: 0, terminated: false } } };
    for (let i = 0; i < 500; i += 1) plan = nextIteration(plan, "L");
    assert.equal(plan.entries.length, 2 + 2 * 501);
    assert.deepEqual(ids(plan).slice(-3), ["x#500", "y#500", "B"]);
    assert.deepEqual(plan.loops.L, { iteration: 500, terminated: false });
  });
});
