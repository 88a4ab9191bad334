import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CodonLimits } from "../budget/index.ts";
import type { AttemptEnd } from "./attempt-end.ts";
import { type CodonResult, codonResultOf, NO_TOKENS } from "./codon-result.ts";
import { type AfterAttemptInput, decideAfterAttempt } from "./decide-after-attempt.ts";

const LIMITS: CodonLimits = { onExceeded: "complete" };
const RESULT: CodonResult = codonResultOf({
  text: "Done.",
  tokens: NO_TOKENS,
  costUsd: 0.1,
  changedPaths: [],
});
const FACTS = {
  costUsd: 0.1,
  durationMs: 100,
  endReasons: { stream: "completed", toolBatch: "completed", turn: "completed", codon: "completed" },
  exitStatus: { type: "success" },
  changedPaths: [],
  limits: LIMITS,
  result: RESULT,
} as const;
const SUCCESS: AttemptEnd = { ...FACTS, kind: "success", contextExceeded: false };
const TRANSIENT = { type: "api-error", retriable: true, message: "500" } as const;
const FAILURE: AttemptEnd = {
  ...FACTS,
  kind: "failure",
  reason: TRANSIENT,
  failedDuring: "running",
  exitStatus: { type: "error", code: 1 },
};

function decide(input: Partial<AfterAttemptInput>) {
  return decideAfterAttempt({
    runtimeId: "a",
    attempt: 1,
    end: SUCCESS,
    hookProblem: undefined,
    codon: {},
    terminateOn: undefined,
    headless: true,
    ...input,
  });
}

function completedData(decision: ReturnType<typeof decide>) {
  const draft = decision.kind === "finish" ? decision.outcome.pending[0] : decision.completed;
  return draft?.type === "codon.completed" ? draft.data : undefined;
}

describe("decideAfterAttempt", () => {
  it("a success completes the codon, journals its text and hands over its result", () => {
    const decision = decide({});
    assert.equal(decision.kind === "finish" && decision.completing, true);
    assert.deepEqual(decision.kind === "finish" && decision.outcome.finish, { kind: "completed" });
    assert.equal(decision.kind === "finish" && decision.outcome.result, RESULT);
    assert.deepEqual(completedData(decision)?.result, { text: "Done.", truncated: false, chars: 5 });
  });

  it("a failure the policy does not retry fails the run; its result is handed over, not journaled", () => {
    const decision = decide({ end: FAILURE });
    assert.equal(
      decision.kind === "finish" && decision.outcome.runFailure,
      "Codon a failed (retriable, but onFailure is 'abort' and --headless has no client to retry it): 500",
    );
    assert.equal(decision.kind === "finish" && decision.outcome.result, RESULT);
    assert.equal(completedData(decision)?.result, undefined);
  });

  it("a retriable failure under abort is parkable when a client can answer, not when headless", () => {
    const attached = decide({ end: FAILURE, headless: false });
    assert.equal(attached.kind === "finish" && attached.outcome.parkable, true);
    const headless = decide({ end: FAILURE });
    assert.equal(headless.kind === "finish" && headless.outcome.parkable, undefined);
  });

  it("a retriable failure under retry is retried after the backoff", () => {
    const decision = decide({
      end: FAILURE,
      codon: { onFailure: "retry", retryConfig: { maxAttempts: 2, delayMs: 10, maxDelayMs: 10 } },
    });
    assert.deepEqual(decision.kind === "retry" && [decision.delayMs, decision.nextAttempt, decision.notice], [
      10,
      2,
      "Retrying codon a (attempt 2 of 2) in 10ms: 500",
    ]);
    assert.equal(completedData(decision)?.success, false);
  });

  it("a failed finish hook fails an agent success, permanently", () => {
    const decision = decide({ hookProblem: "checkpoint failed" });
    assert.equal(decision.kind === "finish" && decision.outcome.runFailure, "checkpoint failed");
    const data = completedData(decision);
    assert.deepEqual(
      [data?.success, data?.failedDuring, data?.endReasons?.codon, data?.result],
      [false, "running", "error", undefined],
    );
  });

  it("a cancel ends the codon as cancelled, and the hook's problem does not matter", () => {
    const cancelled: AttemptEnd = { ...FACTS, kind: "cancelled", failedDuring: "running" };
    const decision = decide({ end: cancelled, hookProblem: "ignored" });
    assert.equal(decision.kind === "finish" && decision.outcome.cancelled, true);
    assert.equal(completedData(decision)?.failureReason, undefined);
  });

  it("an agent that said nothing leaves result out of codon.completed", () => {
    const silent = { ...SUCCESS, result: { ...RESULT, text: "", chars: 0 } };
    assert.equal(completedData(decide({ end: silent }))?.result, undefined);
  });
});
