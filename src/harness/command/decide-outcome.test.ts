import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decideOutcome, type OutcomeFacts } from "./decide-outcome.ts";
import { NO_USAGE } from "./output-parser.ts";

const FACTS: OutcomeFacts = {
  exit: { exitCode: 0, signal: null },
  sessionId: "s1",
  sessionEstablished: true,
  verdict: undefined,
  reportsResult: true,
  text: "",
  totals: NO_USAGE,
  streams: { last: undefined, worst: "completed" },
  pendingTools: 0,
  stderrTail: "",
};

describe("decideOutcome", () => {
  it("keeps an earlier max-tokens stream in the turn layer of a completed session", () => {
    const outcome = decideOutcome({
      ...FACTS,
      verdict: { kind: "completed", resultText: "ok" },
      streams: { last: "completed", worst: "max-tokens" },
    });
    assert.deepEqual(outcome, {
      kind: "completed",
      sessionId: "s1",
      totals: NO_USAGE,
      layers: { stream: "completed", toolBatch: "completed", turn: "max-tokens" },
      resultText: "ok",
    });
  });

  it("prefers the abort over whatever the agent said", () => {
    const outcome = decideOutcome({
      ...FACTS,
      exit: { exitCode: null, signal: "SIGTERM" },
      abortReason: "budget",
      verdict: { kind: "completed" },
      pendingTools: 1,
    });
    assert.deepEqual(outcome, {
      kind: "aborted",
      sessionId: "s1",
      totals: NO_USAGE,
      layers: { stream: "aborted", toolBatch: "aborted", turn: "aborted" },
      reason: "budget",
      process: { exitCode: null, signal: "SIGTERM" },
    });
  });

  it("classifies a structured error verdict, and a context overflow separately", () => {
    const failed = decideOutcome({
      ...FACTS,
      verdict: { kind: "error", failure: { status: 401, message: "invalid x-api-key" }, overflow: false },
      pendingTools: 1,
    });
    assert.deepEqual(failed, {
      kind: "failed",
      sessionId: "s1",
      totals: NO_USAGE,
      layers: { stream: "error", toolBatch: "error", turn: "error" },
      reason: { type: "api-error", retriable: false, message: "API auth error: 401: invalid x-api-key" },
      sessionEstablished: true,
    });
    const overflow = decideOutcome({
      ...FACTS,
      verdict: { kind: "error", failure: { message: "prompt is too long" }, overflow: true },
    });
    assert.equal(overflow.kind, "context-exceeded");
  });

  it("reads a context overflow from stderr when there is no verdict", () => {
    const outcome = decideOutcome({
      ...FACTS,
      exit: { exitCode: 1, signal: null },
      stderrTail: "Error: This model's maximum context length is 8192 tokens",
    });
    assert.equal(outcome.kind, "context-exceeded");
  });

  it("synthesizes the reason of an exit without result or stderr, by signal too", () => {
    const outcome = decideOutcome({
      ...FACTS,
      exit: { exitCode: null, signal: "SIGKILL" },
      sessionEstablished: false,
    });
    assert.deepEqual(outcome.kind === "failed" && outcome.reason, {
      type: "api-error",
      retriable: false,
      message: "Codon process exited before establishing a session (signal SIGKILL)",
    });
  });

  it("completes plain text output on exit 0 and fails it otherwise", () => {
    const base = { ...FACTS, reportsResult: false, sessionId: undefined, text: "hi" };
    assert.deepEqual(decideOutcome(base), {
      kind: "completed",
      totals: NO_USAGE,
      layers: { stream: "completed", toolBatch: "completed", turn: "completed" },
      resultText: "hi",
    });
    const failed = decideOutcome({
      ...base,
      exit: { exitCode: 1, signal: null },
      stderrTail: "503 Service Unavailable\n",
    });
    assert.deepEqual(failed.kind === "failed" && failed.reason, {
      type: "api-error",
      retriable: true,
      message: "API server error: 503 Service Unavailable (exit code 1)",
    });
  });

  it("fails permanently when the process never started, with no session and no totals", () => {
    const outcome = decideOutcome({
      ...FACTS,
      exit: { exitCode: null, signal: null, spawnError: "spawn x ENOENT" },
    });
    assert.deepEqual(outcome, {
      kind: "failed",
      totals: NO_USAGE,
      layers: { stream: "error", toolBatch: "completed", turn: "error" },
      reason: {
        type: "api-error",
        retriable: false,
        message:
          "Local setup/process error (no session established): Could not start the agent command: spawn x ENOENT",
      },
      sessionEstablished: false,
    });
  });
});
