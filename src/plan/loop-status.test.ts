import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ExecutionPlan } from "./execution-plan.ts";
import { eventTerminationReason } from "./loop-end-cause.ts";
import { endLoop, loopStatus, reopenLoop } from "./loop-status.ts";

const PLAN: ExecutionPlan = { version: 1, entries: [], loops: { L: { iteration: 2, terminated: false } } };

describe("loop status", () => {
  it("maps end causes to event termination reasons, leaving budget out", () => {
    assert.equal(eventTerminationReason("iteration_limit"), "iteration_limit");
    assert.equal(eventTerminationReason("context_exceeded"), "context_exceeded");
    assert.equal(eventTerminationReason("sentinel_skip"), "sentinel_skip");
    assert.equal(eventTerminationReason("failure"), "failure");
    assert.equal(eventTerminationReason("budget"), undefined);
  });

  it("records the cause and the event reason when a loop ends", () => {
    assert.deepEqual(endLoop(PLAN, "L", "context_exceeded").loops.L, {
      iteration: 2,
      terminated: true,
      endCause: "context_exceeded",
      terminationReason: "context_exceeded",
    });
    assert.deepEqual(endLoop(PLAN, "L", "budget").loops.L, {
      iteration: 2,
      terminated: true,
      endCause: "budget",
    });
  });

  it("refuses to end a loop twice or an unknown loop", () => {
    assert.throws(() => endLoop(endLoop(PLAN, "L", "budget"), "L", "failure"), /already terminated/);
    assert.throws(() => loopStatus(PLAN, "toString"), /"toString" is not in the execution plan/);
  });

  it("reopens only a loop that ended with a failure or a spent budget", () => {
    assert.deepEqual(reopenLoop(endLoop(PLAN, "L", "failure"), "L").loops.L, {
      iteration: 2,
      terminated: false,
    });
    assert.deepEqual(reopenLoop(endLoop(PLAN, "L", "budget"), "L").loops.L, {
      iteration: 2,
      terminated: false,
    });
    assert.throws(() => reopenLoop(endLoop(PLAN, "L", "iteration_limit"), "L"), /cannot be reopened/);
    assert.throws(() => reopenLoop(PLAN, "L"), /cannot be reopened/);
  });
});
