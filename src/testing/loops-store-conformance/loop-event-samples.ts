import type { LoopEventDataInput, LoopEventType } from "../../events/loop-events.ts";

/**
 * One entry of every kind of the Loops event log, as a writer gives it: the round-trip case appends
 * them all and reads them back unchanged. A kind added to the log without a sample fails to compile.
 */
export const LOOP_EVENT_SAMPLES: { readonly [T in LoopEventType]: LoopEventDataInput<T> } = {
  "run.admitted": {
    state: "running",
    key: "demo:manual:1",
    trigger: "manual",
    notices: [{ code: "definition-changed", message: "gates/check.sh changed" }],
  },
  "run.state": { from: "running", to: "needs-approval", via: "budget_escalated" },
  "run.command": { id: 7, outcome: "refused: the run is done" },
  "run.ended": {
    state: "exhausted",
    cause: "iteration_cap",
    layers: { driver: "completed", goal: "max-tokens" },
  },
  "run.precheck": {
    clean: false,
    gates: [{ gateId: "tests", verdict: "revise", blockerIds: ["B-1"], summary: "1 failing", tokens: null }],
  },
  "run.contract_tampered": {
    label: "gates/check.sh",
    path: "/pinned/check.sh",
    expected: "ab12",
    found: "missing",
  },
  "hook.ran": { hook: "gate_pre", generation: 2, startedAt: "2026-01-02T03:04:05.000Z", answer: "deny" },
  "generation.started": { number: 2, key: "demo:manual:1:g2", inbox: [3, 4] },
  "generation.ended": {
    number: 2,
    state: "blocked",
    gates: [
      {
        gateId: "deps",
        verdict: "blocked",
        blockerIds: [],
        cause: "missing_credential",
        summary: "no token",
      },
    ],
    hash: null,
    tokens: 1200,
  },
  "fan_out.items": { items: [{ id: "a", title: "first" }, { id: "b" }] },
  "fan_out.failed": { message: "the items command did not succeed (exited)" },
  "watch.tick": { items: [{ id: "issue-9", url: "https://example.test/9" }], cursor: "c-42" },
  "watch.poll_failed": { message: "exit 2: no network" },
  "watch.disarmed": { why: "the loop is not registered" },
};
