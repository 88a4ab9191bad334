import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ExecutionPlan } from "./execution-plan.ts";
import { parseExecutionPlan } from "./parse-execution-plan.ts";

const PLAN: ExecutionPlan = {
  version: 1,
  entries: [
    { runtimeId: "A", configId: "A", topIndex: 0 },
    {
      runtimeId: "x#0",
      configId: "x",
      topIndex: 1,
      loop: { loopId: "L", iteration: 0, position: 0, isLast: true },
    },
  ],
  loops: { L: { iteration: 0, terminated: true, endCause: "budget" } },
};

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe("parseExecutionPlan", () => {
  it("reads back a persisted plan exactly", () => {
    assert.deepEqual(parseExecutionPlan(roundTrip(PLAN)), { ok: true, plan: PLAN });
  });

  it("derives terminationReason from endCause again", () => {
    const stored = {
      ...PLAN,
      loops: {
        L: { iteration: 0, terminated: true, endCause: "failure", terminationReason: "iteration_limit" },
      },
    };
    const parsed = parseExecutionPlan(stored);
    assert.deepEqual(parsed.ok && parsed.plan.loops.L, {
      iteration: 0,
      terminated: true,
      endCause: "failure",
      terminationReason: "failure",
    });
  });

  it("rejects a wrong shape or version", () => {
    const wrongVersion = parseExecutionPlan({ ...PLAN, version: 2 });
    assert.equal(wrongVersion.ok, false);
    assert.match(wrongVersion.ok ? "" : wrongVersion.message, /^Invalid execution plan: /);
    assert.equal(parseExecutionPlan({ ...PLAN, entries: [{ runtimeId: "A" }] }).ok, false);
    assert.equal(parseExecutionPlan(null).ok, false);
  });

  it("rejects duplicate runtime ids, orphan loop codons and inconsistent loop status", () => {
    const first = PLAN.entries[0];
    assert.deepEqual(parseExecutionPlan({ ...PLAN, entries: [first, first] }), {
      ok: false,
      message: 'Invalid execution plan: duplicate runtime id "A"',
    });
    assert.deepEqual(parseExecutionPlan({ ...PLAN, loops: {} }), {
      ok: false,
      message: 'Invalid execution plan: "x#0" names a loop without a status',
    });
    assert.deepEqual(parseExecutionPlan({ ...PLAN, loops: { L: { iteration: 0, terminated: true } } }), {
      ok: false,
      message: 'Invalid execution plan: loop "L" must have an endCause exactly when it has terminated',
    });
  });
});
