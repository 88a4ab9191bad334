import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SessionOutcome } from "../../harness/harness.ts";
import { type CodonLimits, startMeter } from "../budget/index.ts";
import type { SessionsResult } from "../session/run-sessions.ts";
import type { SessionRunResult } from "../session/session-runner.ts";
import {
  type AttemptEndInput,
  cancelledBeforeSession,
  classifyAttemptEnd,
  failedBeforeSession,
} from "./classify-attempt-end.ts";
import { NO_TOKENS } from "./codon-result.ts";

const LIMITS: CodonLimits = { onExceeded: "complete" };
const LAYERS = { stream: "completed", toolBatch: "completed", turn: "completed" } as const;
const TOTALS = { ...NO_TOKENS, costUsd: null };
const TOKENS = { inputTokens: 10, outputTokens: 5, cacheCreationTokens: 0, cacheReadTokens: 2 };

function sessions(
  outcome: SessionOutcome,
  last: Partial<SessionRunResult> = {},
  more: Partial<SessionsResult> = {},
) {
  const run: SessionRunResult = {
    outcome,
    meter: startMeter(LIMITS),
    sessionId: "s-1",
    costUsd: 0.25,
    changedPaths: ["a.txt"],
    tokens: TOKENS,
    ...last,
  };
  const result: SessionsResult = {
    last: run,
    extensions: 0,
    started: true,
    idleTimeoutMs: 5000,
    text: "Done.",
    tokens: TOKENS,
    changedPaths: ["a.txt", "b.txt"],
    ...more,
  };
  return result;
}

/** A session the agent ended with a failure of its own, after it was established. */
function failedSession(reason: Extract<SessionOutcome, { kind: "failed" }>["reason"]): SessionOutcome {
  return {
    kind: "failed",
    reason,
    sessionEstablished: true,
    layers: { ...LAYERS, stream: "error", turn: "error" },
    totals: TOTALS,
  };
}

function classify(input: Partial<AttemptEndInput> & Pick<AttemptEndInput, "sessions">) {
  return classifyAttemptEnd({ limits: LIMITS, terminateOn: undefined, durationMs: 1200, ...input });
}

describe("classifyAttemptEnd", () => {
  it("a completed session is a success carrying the attempt's result", () => {
    const end = classify({ sessions: sessions({ kind: "completed", layers: LAYERS, totals: TOTALS }) });
    assert.equal(end.kind, "success");
    assert.deepEqual(end.exitStatus, { type: "success" });
    assert.deepEqual(end.changedPaths, ["a.txt", "b.txt"]);
    assert.deepEqual(end.result, {
      text: "Done.",
      truncated: false,
      chars: 5,
      filesChanged: ["a.txt", "b.txt"],
      usage: { ...TOKENS, costUsd: 0.25 },
    });
  });

  it("a failed session keeps its result too, and fails with the session's reason", () => {
    const reason = { type: "api-error", retriable: true, message: "500" } as const;
    const outcome = failedSession(reason);
    const end = classify({ sessions: sessions(outcome) });
    assert.equal(end.kind === "failure" && end.reason, reason);
    assert.equal(end.result?.text, "Done.");
    assert.equal(end.endReasons.codon, "error");
  });

  it("never turns a failure the agent ended with into a budget completion", () => {
    // Only the reading taken after the session ended reached the limit: no stop cause was set.
    const reason = { type: "api-error", retriable: false, message: "credit balance too low" } as const;
    const outcome = failedSession(reason);
    const exceeded = {
      currency: "duration",
      limit: 1,
      used: 1,
      message: "Duration 1.0s exceeded limit 1s",
    } as const;
    const end = classify({ sessions: sessions(outcome, { exceeded }) });
    assert.equal(end.kind === "failure" && end.reason, reason);
    assert.deepEqual(end.budgetExceeded, exceeded, "recorded, without changing how the codon ended");
    assert.equal(end.endReasons.codon, "error");
  });

  it("the engine's own stops come first: an idle timeout is a retriable timeout, killed", () => {
    const completed: SessionOutcome = { kind: "completed", layers: LAYERS, totals: TOTALS };
    const end = classify({ sessions: sessions(completed, { stopCause: "idle-timeout" }) });
    assert.deepEqual(end.kind === "failure" && end.reason, {
      type: "timeout",
      retriable: true,
      message: "Idle timeout: no events received for 5000ms",
    });
    // No process of the harness's own existed (an in-process session): nothing claims it was killed.
    assert.deepEqual(end.exitStatus, { type: "none" });
  });

  it("a stopped session's exit status is how the agent's process really ended", () => {
    const stopped = (process: { exitCode: number | null; signal: string | null }) => {
      const outcome: SessionOutcome = {
        kind: "aborted",
        reason: "cancel",
        layers: LAYERS,
        totals: TOTALS,
        process,
      };
      return classify({ sessions: sessions(outcome, { stopCause: "cancelled" }) }).exitStatus;
    };
    assert.deepEqual(stopped({ exitCode: null, signal: "SIGKILL" }), { type: "killed", signal: "SIGKILL" });
    assert.deepEqual(stopped({ exitCode: 0, signal: null }), { type: "success" });
    assert.deepEqual(stopped({ exitCode: 3, signal: null }), { type: "error", code: 3 });
    assert.deepEqual(stopped({ exitCode: 143, signal: null }), { type: "killed", signal: "SIGTERM" });
  });

  it("context exhaustion is success only in a contextExceeded loop or after extensions", () => {
    const exceeded: SessionOutcome = {
      kind: "context-exceeded",
      via: "overflow",
      layers: LAYERS,
      totals: TOTALS,
    };
    assert.equal(classify({ sessions: sessions(exceeded) }).kind, "failure");
    const inLoop = classify({ sessions: sessions(exceeded), terminateOn: { type: "contextExceeded" } });
    assert.equal(inLoop.kind === "success" && inLoop.contextExceeded, true);
    const extended = classify({ sessions: sessions(exceeded, {}, { extensions: 2 }) });
    assert.equal(extended.kind === "success" && extended.contextExceeded, true);
  });

  it("a session that never reported its id failed while initializing", () => {
    const aborted: SessionOutcome = { kind: "aborted", reason: "gone", layers: LAYERS, totals: TOTALS };
    const end = classify({ sessions: sessions(aborted, {}, { started: false }) });
    assert.equal(end.kind === "failure" && end.failedDuring, "initializing");
  });
});

describe("ends before a session", () => {
  it("fail permanently, without a result", () => {
    const end = failedBeforeSession("starting", "Model 'x' was not resolved", 3, LIMITS);
    assert.deepEqual(end.kind === "failure" && [end.reason, end.failedDuring, end.result], [
      { type: "unknown", retriable: false, message: "Model 'x' was not resolved" },
      "starting",
      undefined,
    ]);
    assert.equal(cancelledBeforeSession(0, LIMITS).endReasons.codon, "aborted");
  });
});
