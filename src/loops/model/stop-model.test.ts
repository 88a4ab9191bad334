import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { effectiveBudgets, ZERO_METERS } from "./budgets.ts";
import type { GateVerdict, GenerationFacts } from "./generation-facts.ts";
import { BUILTIN_DEFAULTS } from "./limits.ts";
import {
  blockerStreak,
  type DecisionInput,
  decide,
  failureStreak,
  inactivityStalled,
  noProgressStreak,
  revisionsOf,
} from "./stop-model.ts";

const limits = { ...BUILTIN_DEFAULTS.delivery, window: 3, failure_breaker: 3, iteration_cap: 10 };

function gate(
  verdict: GateVerdict["verdict"],
  blockerIds: string[] = [],
  extra: Partial<GateVerdict> = {},
): GateVerdict {
  return { gateId: "tests", verdict, blockerIds, summary: "", ...extra };
}

function gen(
  number: number,
  hash: string | null,
  gates: GateVerdict[],
  body: GenerationFacts["body"] = { kind: "completed" },
): GenerationFacts {
  return { number, body, gates, hash };
}

function input(history: GenerationFacts[], extra: Partial<DecisionInput> = {}): DecisionInput {
  return {
    limits,
    gates: [{ id: "tests", maxRevisions: 10 }],
    history,
    meters: { ...ZERO_METERS, generations: history.length },
    budgets: effectiveBudgets(limits, []),
    onExceeded: "halt",
    unreadOperatorMessages: 0,
    stopRequested: false,
    pauseRequested: false,
    ...extra,
  };
}

describe("stop model", () => {
  test("before the first generation the run starts", () => {
    assert.deepEqual(decide(input([])), { kind: "continue", because: "start" });
  });

  test("gates passed: done; an unread operator note keeps it going one more generation", () => {
    const history = [gen(1, "a", [gate("pass")])];
    assert.deepEqual(decide(input(history)), {
      kind: "end",
      outcome: { state: "done", cause: "gates_passed" },
    });
    assert.deepEqual(decide(input(history, { unreadOperatorMessages: 1 })), {
      kind: "continue",
      because: "inbox",
    });
  });

  test("a failing gate asks for a revision", () => {
    assert.deepEqual(decide(input([gen(1, "a", [gate("revise")])])), { kind: "continue", because: "revise" });
  });

  test("the same hash for window generations in a row: stalled no_progress_hash (A/B too)", () => {
    const same = [
      gen(1, "a", [gate("revise")]),
      gen(2, "a", [gate("revise")]),
      gen(3, "a", [gate("revise")]),
    ];
    assert.equal(noProgressStreak(same, 3), 2);
    assert.equal(decide(input(same)).kind, "continue");
    const four = [...same, gen(4, "a", [gate("revise")])];
    assert.deepEqual(decide(input(four)), {
      kind: "end",
      outcome: { state: "stalled", cause: "no_progress_hash" },
    });
    const ab = ["a", "b", "a", "b", "a"].map((h, i) => gen(i + 1, h, [gate("revise")]));
    assert.equal(noProgressStreak(ab, 3), 3);
  });

  test("failed generations never count toward the no-progress window", () => {
    const failedBody = { kind: "error", message: "x", unrecoverable: false } as const;
    const history = [gen(1, "a", []), gen(2, null, [], failedBody), gen(3, "a", []), gen(4, "b", [])];
    assert.equal(noProgressStreak(history, 3), 0);
  });

  test("the same non-empty blocker set for window generations: stalled blocker_signature", () => {
    const history = [1, 2, 3].map((n) => gen(n, `h${n}`, [gate("revise", ["B-2", "B-1"])]));
    assert.equal(blockerStreak(history), 3);
    assert.deepEqual(decide(input(history)), {
      kind: "end",
      outcome: { state: "stalled", cause: "blocker_signature" },
    });
    const changed = [...history.slice(0, 2), gen(3, "h3", [gate("revise", ["B-1"])])];
    assert.equal(blockerStreak(changed), 1);
  });

  test("consecutive failed generations trip the breaker", () => {
    const failedBody = { kind: "error", message: "503", unrecoverable: false } as const;
    const history = [1, 2, 3].map((n) => gen(n, null, [], failedBody));
    assert.equal(failureStreak(history), 3);
    assert.deepEqual(decide(input(history)), {
      kind: "end",
      outcome: { state: "stalled", cause: "failure_breaker" },
    });
    const gateErrors = [1, 2, 3].map((n) => gen(n, `h${n}`, [gate("error")]));
    assert.deepEqual(decide(input(gateErrors)).kind, "end");
  });

  test("an unrecoverable body or gate error fails the run", () => {
    const body = { kind: "error", message: "invalid hank", unrecoverable: true } as const;
    assert.deepEqual(decide(input([gen(1, null, [], body)])), {
      kind: "end",
      outcome: { state: "failed", cause: "body_failed" },
    });
    const gateMissing = [gen(1, "a", [gate("error", [], { unrecoverable: true })])];
    assert.deepEqual(decide(input(gateMissing)), {
      kind: "end",
      outcome: { state: "failed", cause: "gate_error" },
    });
  });

  test("blocked: a gate exit 3 or a missing dependency of the body", () => {
    const history = [gen(1, "a", [gate("blocked", [], { cause: "missing_credential" })])];
    assert.deepEqual(decide(input(history)), {
      kind: "end",
      outcome: { state: "blocked", cause: "missing_credential" },
    });
    const body = { kind: "blocked", cause: "missing_dependency", message: "git" } as const;
    assert.deepEqual(decide(input([gen(1, null, [], body)])), {
      kind: "end",
      outcome: { state: "blocked", cause: "missing_dependency" },
    });
  });

  test("the iteration cap before the gates pass: exhausted; passing on the last one is done", () => {
    const capped = { ...limits, iteration_cap: 2 };
    const history = [gen(1, "a", [gate("revise")]), gen(2, "b", [gate("revise")])];
    assert.deepEqual(decide(input(history, { limits: capped })), {
      kind: "end",
      outcome: { state: "exhausted", cause: "iteration_cap" },
    });
    const passed = [gen(1, "a", [gate("revise")]), gen(2, "b", [gate("pass")])];
    assert.equal(decide(input(passed, { limits: capped })).kind, "end");
    assert.deepEqual(decide(input(passed, { limits: capped })), {
      kind: "end",
      outcome: { state: "done", cause: "gates_passed" },
    });
  });

  test("max_revisions counts the generations a gate did not pass", () => {
    const history = [gen(1, "a", [gate("revise")]), gen(2, "b", [gate("revise")])];
    assert.equal(revisionsOf("tests", history), 2);
    const decision = decide(input(history, { gates: [{ id: "tests", maxRevisions: 2 }] }));
    assert.deepEqual(decision, { kind: "end", outcome: { state: "exhausted", cause: "gate_max_revisions" } });
  });

  test("budgets: halt ends exhausted, escalate parks, an approved amount re-arms", () => {
    const withBudget = { ...limits, budget_tokens: 1000 };
    const meters = { ...ZERO_METERS, tokens: 1500 };
    const history = [gen(1, "a", [gate("revise")])];
    const halted = decide(
      input(history, { limits: withBudget, meters, budgets: effectiveBudgets(withBudget, []) }),
    );
    assert.deepEqual(halted, { kind: "end", outcome: { state: "exhausted", cause: "budget_tokens" } });
    const escalated = decide(
      input(history, {
        limits: withBudget,
        meters,
        onExceeded: "escalate",
        budgets: effectiveBudgets(withBudget, []),
      }),
    );
    assert.deepEqual(escalated, { kind: "park", state: "needs-approval", reason: "budget_escalated" });
    const rearmed = effectiveBudgets(withBudget, [{ budget: "tokens", add: 1000, by: "me", at: "t" }]);
    assert.equal(rearmed.tokens, 2000);
    assert.equal(
      decide(input(history, { limits: withBudget, meters, onExceeded: "escalate", budgets: rearmed })).kind,
      "continue",
    );
    const clock = { ...limits, budget_wall_clock_sec: 60 };
    const slow = decide(
      input(history, {
        limits: clock,
        meters: { ...ZERO_METERS, runningMs: 61_000 },
        budgets: effectiveBudgets(clock, []),
      }),
    );
    assert.deepEqual(slow, { kind: "end", outcome: { state: "exhausted", cause: "budget_wall_clock" } });
  });

  test("a human gate parks the run", () => {
    const history = [gen(1, "a", [gate("pass"), { ...gate("approval"), gateId: "sign-off" }])];
    const decision = decide(
      input(history, {
        gates: [
          { id: "tests", maxRevisions: 10 },
          { id: "sign-off", maxRevisions: 10 },
        ],
      }),
    );
    assert.deepEqual(decision, { kind: "park", state: "needs-approval", reason: "human_gate" });
  });

  test("precedence: stop > done > blocked > failed > stalled > exhausted > park > pause", () => {
    const passed = [gen(1, "a", [gate("pass")])];
    assert.deepEqual(decide(input(passed, { stopRequested: true })), {
      kind: "end",
      outcome: { state: "failed", cause: "operator_stop" },
    });
    assert.deepEqual(decide(input(passed, { pauseRequested: true })), {
      kind: "end",
      outcome: { state: "done", cause: "gates_passed" },
    });
    const revise = [gen(1, "a", [gate("revise")])];
    assert.deepEqual(decide(input(revise, { pauseRequested: true })), {
      kind: "park",
      state: "paused",
      reason: "operator_pause",
    });
    const capped = { ...limits, iteration_cap: 1, budget_tokens: 10 };
    const both = decide(
      input(revise, {
        limits: capped,
        onExceeded: "escalate",
        meters: { ...ZERO_METERS, tokens: 20 },
        budgets: effectiveBudgets(capped, []),
      }),
    );
    assert.deepEqual(both, { kind: "end", outcome: { state: "exhausted", cause: "iteration_cap" } });
    const blockedAndStalled = [1, 2, 3].map((n) => gen(n, "same", [gate("blocked", ["x"])]));
    assert.deepEqual(decide(input(blockedAndStalled)), {
      kind: "end",
      outcome: { state: "blocked", cause: "missing_dependency" },
    });
  });

  test("the inactivity clock never fires while a node runs", () => {
    const base = { runningMsNow: 7_200_000, runningMsAtLastProgress: 0, inactivitySec: 3600 };
    assert.equal(inactivityStalled({ ...base, nodeRunning: false }), true);
    assert.equal(inactivityStalled({ ...base, nodeRunning: true }), false);
    assert.equal(inactivityStalled({ ...base, runningMsNow: 3_599_999, nodeRunning: false }), false);
  });

  test("a generation the inactivity clock ended: stalled inactivity, below a stop", () => {
    const inactive: GenerationFacts = {
      ...gen(1, null, [], { kind: "aborted", message: "inactive" }),
      inactive: true,
    };
    assert.deepEqual(decide(input([inactive])), {
      kind: "end",
      outcome: { state: "stalled", cause: "inactivity" },
    });
    assert.deepEqual(decide(input([inactive], { stopRequested: true })), {
      kind: "end",
      outcome: { state: "failed", cause: "operator_stop" },
    });
  });
});
