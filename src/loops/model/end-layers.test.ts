import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { TERMINAL_CAUSES, TERMINAL_STATES } from "../../events/loop-run-states.ts";
import { END_KINDS, endLayersOf, goalEndKind, runEndLayers } from "./end-layers.ts";

describe("end layers in the six kinds", () => {
  test("every terminal outcome has a goal kind among the six", () => {
    for (const state of TERMINAL_STATES)
      for (const cause of TERMINAL_CAUSES[state]) {
        const kind = goalEndKind({ state, cause } as Parameters<typeof goalEndKind>[0]);
        assert.ok((END_KINDS as readonly string[]).includes(kind), `${state}: ${cause} -> ${kind}`);
      }
  });

  test("a stop is aborted on both layers, never interrupted; an error stays apart from the driver's end", () => {
    assert.deepEqual(runEndLayers({ state: "failed", cause: "operator_stop" }, "completed"), {
      driver: "aborted",
      goal: "aborted",
    });
    assert.deepEqual(runEndLayers({ state: "failed", cause: "contract_tampered" }, "completed"), {
      driver: "completed",
      goal: "error",
    });
    assert.deepEqual(runEndLayers({ state: "exhausted", cause: "budget_tokens" }, "aborted"), {
      driver: "aborted",
      goal: "max-tokens",
    });
    assert.deepEqual(runEndLayers({ state: "no-op", cause: "precheck_clean" }, undefined), {
      driver: "completed",
      goal: "completed",
    });
    assert.equal(goalEndKind({ state: "failed", cause: "hook_denied" }), "blocked");
    assert.equal(goalEndKind({ state: "stalled", cause: "inactivity" }), "blocked");
  });

  test("a live run has no end layers yet", () => {
    assert.equal(endLayersOf({ state: "running", cause: null }, undefined), null);
    assert.deepEqual(endLayersOf({ state: "done", cause: "gates_passed" }, { state: "completed" }), {
      driver: "completed",
      goal: "completed",
    });
  });
});
