import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decideOutcome, type ResultFacts, type SessionFacts } from "./decide-outcome.ts";
import { sessionCost } from "./run-claude-session.ts";

const TOTALS = { inputTokens: 10, outputTokens: 2, cacheCreationTokens: 0, cacheReadTokens: 0, costUsd: 0.5 };
const OK_LAYERS = { stream: "completed", toolBatch: "completed", turn: "completed" } as const;
const ERROR_LAYERS = { stream: "error", toolBatch: "completed", turn: "error" } as const;

function facts(overrides: Partial<SessionFacts> = {}): SessionFacts {
  return {
    sessionId: "s-1",
    established: true,
    stderrTail: "",
    compacted: false,
    lastStop: "end_turn",
    worstStream: "completed",
    toolsPending: false,
    totals: TOTALS,
    ...overrides,
  };
}

function errorResult(text: string, more: Partial<ResultFacts> = {}): ResultFacts {
  return { subtype: "success", isError: true, text, ...more };
}

describe("decideOutcome", () => {
  it("a successful result completes with its text", () => {
    const outcome = decideOutcome(facts({ result: { subtype: "success", isError: false, text: "done" } }));
    assert.deepEqual(outcome, {
      kind: "completed",
      sessionId: "s-1",
      totals: TOTALS,
      layers: OK_LAYERS,
      resultText: "done",
    });
  });

  it("an earlier max-tokens step stays in the turn layer of a completed session", () => {
    const result = { subtype: "success", isError: false, text: "" };
    const outcome = decideOutcome(facts({ result, worstStream: "max-tokens" }));
    assert.equal(outcome.kind, "completed");
    assert.deepEqual(outcome.layers, { stream: "completed", toolBatch: "completed", turn: "max-tokens" });
    assert.equal("resultText" in outcome, false);
  });

  it("a disguised error (subtype success, is_error) is classified from its status, with Claude Code's retry wait", () => {
    const result = errorResult("API Error: Request rejected (429) · slow down", {
      apiErrorStatus: 429,
      apiErrorType: "rate_limit_error",
    });
    const outcome = decideOutcome(facts({ result, rateLimitRetryMs: 1084 }));
    assert.deepEqual(outcome, {
      kind: "failed",
      reason: {
        type: "rate-limit",
        retriable: true,
        message: "API rate limit: API Error: Request rejected (429) · slow down",
        retryAfterMs: 1084,
      },
      sessionEstablished: true,
      sessionId: "s-1",
      totals: TOTALS,
      layers: ERROR_LAYERS,
    });
  });

  it("an auth error is permanent; the retry wait of a 429 is not carried to other statuses", () => {
    const result = errorResult("Invalid API key · Fix external API key", { apiErrorStatus: 401 });
    const outcome = decideOutcome(facts({ result, rateLimitRetryMs: 500 }));
    assert.equal(outcome.kind, "failed");
    assert.deepEqual(outcome.kind === "failed" && outcome.reason, {
      type: "api-error",
      retriable: false,
      message: "API auth error: 401: Invalid API key · Fix external API key",
    });
  });

  it("the error type decides when no status came with it", () => {
    const result = errorResult("denied", { apiErrorType: "permission_error" });
    const outcome = decideOutcome(facts({ result }));
    assert.equal(
      outcome.kind === "failed" && outcome.reason.message,
      "API auth error: permission_error: denied",
    );
  });

  it("a full context window is context-exceeded via overflow, by terminal reason or text", () => {
    for (const result of [
      errorResult("Prompt is too long", { terminalReason: "blocking_limit" }),
      errorResult("prompt is too long: 210000 tokens > 200000 maximum", { apiErrorStatus: 400 }),
    ]) {
      const outcome = decideOutcome(facts({ result }));
      assert.deepEqual(outcome, {
        kind: "context-exceeded",
        via: "overflow",
        sessionId: "s-1",
        totals: TOTALS,
        layers: ERROR_LAYERS,
      });
    }
  });

  it("with autoCompact a compaction during a successful session is context-exceeded via compaction", () => {
    const result = { subtype: "success", isError: false, text: "done" };
    const outcome = decideOutcome(facts({ result, compacted: true }));
    assert.equal(outcome.kind === "context-exceeded" && outcome.via, "compaction");
    assert.deepEqual(outcome.layers, OK_LAYERS);
  });

  it("the turn limit is a permanent failure", () => {
    const result: ResultFacts = {
      subtype: "error_max_turns",
      isError: true,
      text: "Reached maximum number of turns (3)",
    };
    const outcome = decideOutcome(facts({ result }));
    assert.deepEqual(outcome.kind === "failed" && outcome.reason, {
      type: "unknown",
      retriable: false,
      message: "Claude Code stopped at its turn limit: Reached maximum number of turns (3)",
    });
  });

  it("a stopped truncated tool call is max-tokens, whatever the result says", () => {
    const result = { subtype: "success", isError: false, text: "" };
    const outcome = decideOutcome(facts({ result, truncatedTool: "Write", lastStop: "max_tokens" }));
    assert.deepEqual(outcome, {
      kind: "max-tokens",
      message:
        "Output stopped at the max output tokens limit in the middle of a Write tool call; the call was not executed",
      sessionId: "s-1",
      totals: TOTALS,
      layers: { stream: "max-tokens", toolBatch: "completed", turn: "max-tokens" },
    });
  });

  it("a cancel is aborted, with the tool batch aborted when a call had no result yet", () => {
    const outcome = decideOutcome(
      facts({ abortReason: "budget", toolsPending: true, thrown: "aborted by user" }),
    );
    assert.deepEqual(outcome, {
      kind: "aborted",
      reason: "budget",
      sessionId: "s-1",
      totals: TOTALS,
      layers: { stream: "aborted", toolBatch: "aborted", turn: "aborted" },
    });
  });

  it("a successful result that beat the cancel stands", () => {
    const result = { subtype: "success", isError: false, text: "done" };
    assert.equal(decideOutcome(facts({ result, abortReason: "cancelled" })).kind, "completed");
  });

  it("a process that fails before a session exists is a permanent local error, with its stderr", () => {
    const { sessionId: _unused, ...noSession } = facts({
      established: false,
      thrown: "Claude Code process exited with code 1",
      stderrTail:
        "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons\n",
    });
    const outcome = decideOutcome(noSession);
    assert.deepEqual(outcome.kind === "failed" && outcome.reason, {
      type: "api-error",
      retriable: false,
      message:
        "Local setup/process error (no session established): Claude Code process exited with code 1\n--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons",
    });
    assert.equal(outcome.kind === "failed" && outcome.sessionEstablished, false);
  });

  it("a crash after the session started is retriable, and an end without any result too", () => {
    const crashed = decideOutcome(facts({ thrown: "Claude Code process exited with code 137" }));
    assert.deepEqual(crashed.kind === "failed" && crashed.reason, {
      type: "api-error",
      retriable: true,
      message:
        "Codon process exited without a result message (exit code 137): Claude Code process exited with code 137",
    });
    const silent = decideOutcome(facts());
    assert.deepEqual(silent.kind === "failed" && silent.reason, {
      type: "api-error",
      retriable: true,
      message: "Codon process exited without a result message (no exit code)",
    });
  });
});

describe("sessionCost", () => {
  it("subtracts what a resumed session's transcript had recorded; unknown figures give null", () => {
    assert.equal(sessionCost(0.009, 0.0045), 0.009 - 0.0045);
    assert.equal(sessionCost(0.0135, 0), 0.0135);
    assert.equal(sessionCost(0.0135, undefined), null);
    assert.equal(sessionCost(undefined, 0), null);
    assert.equal(sessionCost(0.001, 0.002), null);
  });
});
