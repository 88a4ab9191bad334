import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  isCauseOf,
  isParkReasonOf,
  isTerminalState,
  PARK_REASONS,
  RUN_STATES,
  TERMINAL_CAUSES,
  TERMINAL_STATES,
} from "../../events/loop-run-states.ts";
import { IllegalTransitionError, isAllowed, STATE_TABLE, transition } from "./state-table.ts";

describe("state table: every edge", () => {
  for (const edge of STATE_TABLE) {
    test(`${edge.from} -> ${edge.to} (${edge.via})`, () => {
      assert.equal(transition(edge.from, edge.to, edge.via), edge.to);
      if (isTerminalState(edge.to))
        assert.ok(isCauseOf(edge.to, edge.via), `${edge.via} is a cause of ${edge.to}`);
      if (edge.to === "needs-approval" || (edge.to === "paused" && edge.from !== "new")) {
        assert.ok(isParkReasonOf(edge.to, edge.via), `${edge.via} is a park reason of ${edge.to}`);
      }
    });
  }
});

describe("state table: shape", () => {
  test("no terminal state has an outgoing edge", () => {
    for (const state of TERMINAL_STATES) {
      assert.deepEqual(
        STATE_TABLE.filter((edge) => edge.from === state),
        [],
      );
    }
  });

  test("every terminal cause and every park reason is reachable", () => {
    for (const state of TERMINAL_STATES) {
      for (const cause of TERMINAL_CAUSES[state]) {
        assert.ok(
          STATE_TABLE.some((edge) => edge.to === state && edge.via === cause),
          `${state}: ${cause}`,
        );
      }
    }
    for (const [state, reasons] of Object.entries(PARK_REASONS)) {
      for (const reason of reasons) {
        assert.ok(
          STATE_TABLE.some((edge) => edge.to === state && edge.via === reason),
          `${state}: ${reason}`,
        );
      }
    }
  });

  test("every live state can be stopped by the operator", () => {
    for (const state of RUN_STATES) {
      if (isTerminalState(state)) continue;
      assert.ok(isAllowed(state, "failed", "operator_stop"), state);
    }
  });

  test("an edge that is not in the table throws", () => {
    assert.throws(() => transition("done", "running", "resumed"), IllegalTransitionError);
    assert.throws(() => transition("running", "done", "clean_tick"), IllegalTransitionError);
    assert.throws(() => transition("queued", "paused", "operator_pause"), IllegalTransitionError);
    assert.throws(() => transition("watching", "stalled", "inactivity"), IllegalTransitionError);
  });
});
