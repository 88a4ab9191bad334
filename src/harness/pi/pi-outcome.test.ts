import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AssistantMessage } from "@mariozechner/pi-ai";
import { ALL_COMPLETED } from "../end-reason.ts";
import type { MappedSession } from "./pi-event-mapper.ts";
import { classifyPiError, decidePiOutcome, type PiOutcomeFacts } from "./pi-outcome.ts";
import { assistantMessage } from "./pi-test-support.ts";

const TOTALS = { inputTokens: 10, outputTokens: 2, cacheCreationTokens: 0, cacheReadTokens: 0, costUsd: 0.5 };

function facts(last: AssistantMessage | undefined, extra: Partial<PiOutcomeFacts> = {}): PiOutcomeFacts {
  const mapped: MappedSession = {
    lastAssistant: last,
    layers: ALL_COMPLETED,
    totals: TOTALS,
    resultText: undefined,
    truncatedCalls: [],
  };
  return {
    sessionId: "s1",
    mapped,
    abortReason: undefined,
    refusal: undefined,
    overflow: false,
    compacted: false,
    maxTokens: 4096,
    ...extra,
  };
}

const withMapped = (f: PiOutcomeFacts, mapped: Partial<MappedSession>): PiOutcomeFacts => ({
  ...f,
  mapped: { ...f.mapped, ...mapped },
});

describe("decidePiOutcome", () => {
  it("a delivered cancel wins over a completed response and marks the turn aborted", () => {
    const outcome = decidePiOutcome(facts(assistantMessage("stop"), { abortReason: "budget" }));
    assert.deepEqual(outcome, {
      kind: "aborted",
      reason: "budget",
      sessionId: "s1",
      totals: TOTALS,
      layers: { stream: "completed", toolBatch: "completed", turn: "aborted" },
    });
  });

  it("a refusal before any response fails permanently, with no session established", () => {
    const outcome = decidePiOutcome(facts(undefined, { refusal: "No API key found for fake." }));
    assert.ok(outcome.kind === "failed");
    assert.deepEqual(outcome.reason, {
      type: "api-error",
      retriable: false,
      message: "API auth error: No API key found for fake.",
    });
    assert.equal(outcome.sessionEstablished, false);
    assert.deepEqual(outcome.layers, { stream: "error", toolBatch: "completed", turn: "error" });
  });

  it("a response cut off at max tokens, without tool calls", () => {
    const outcome = decidePiOutcome(facts(assistantMessage("length")));
    assert.ok(outcome.kind === "max-tokens");
    assert.equal(
      outcome.message,
      "The response was cut off at the model's output token limit (max tokens 4096)",
    );
  });

  it("a response cut off at max tokens names the calls that were not run", () => {
    const f = withMapped(facts(assistantMessage("length")), { truncatedCalls: ["write", "bash"] });
    const outcome = decidePiOutcome(f);
    assert.ok(outcome.kind === "max-tokens");
    assert.equal(
      outcome.message,
      "The response was cut off at the model's output token limit (max tokens 4096); the truncated tool calls write, bash were not executed",
    );
  });

  it("an overflow is context-exceeded, via compaction when the harness compacted", () => {
    const last = assistantMessage("error", { errorMessage: "400 prompt is too long" });
    const plain = decidePiOutcome(facts(last, { overflow: true }));
    const compacted = decidePiOutcome(facts(last, { overflow: true, compacted: true }));
    assert.ok(plain.kind === "context-exceeded" && compacted.kind === "context-exceeded");
    assert.equal(plain.via, "overflow");
    assert.equal(compacted.via, "compaction");
  });

  it("any other error is classified, with the session established", () => {
    const last = assistantMessage("error", { errorMessage: "503 The engine is currently overloaded" });
    const outcome = decidePiOutcome(facts(last));
    assert.ok(outcome.kind === "failed");
    assert.equal(outcome.sessionEstablished, true);
    assert.deepEqual(outcome.reason, {
      type: "api-error",
      retriable: true,
      message: "API server error: 503 The engine is currently overloaded",
    });
  });

  it("a response pi aborted on its own is aborted with pi's message", () => {
    const outcome = decidePiOutcome(
      facts(assistantMessage("aborted", { errorMessage: "Request was aborted" })),
    );
    assert.ok(outcome.kind === "aborted");
    assert.equal(outcome.reason, "Request was aborted");
  });

  it("a completed prompt carries the last text, when there was one", () => {
    const done = decidePiOutcome(withMapped(facts(assistantMessage("stop")), { resultText: "ok" }));
    const silent = decidePiOutcome(facts(assistantMessage("stop")));
    assert.deepEqual(done, {
      kind: "completed",
      resultText: "ok",
      sessionId: "s1",
      layers: ALL_COMPLETED,
      totals: TOTALS,
    });
    assert.deepEqual(silent, { kind: "completed", sessionId: "s1", layers: ALL_COMPLETED, totals: TOTALS });
  });
});

describe("classifyPiError", () => {
  it("reads the leading HTTP status as a structured field", () => {
    assert.deepEqual(classifyPiError("401 Incorrect API key provided"), {
      type: "api-error",
      retriable: false,
      message: "API auth error: 401 Incorrect API key provided",
    });
    assert.deepEqual(classifyPiError("429 Too many requests"), {
      type: "rate-limit",
      retriable: true,
      message: "API rate limit: 429 Too many requests",
    });
  });

  it("reads a bare 'terminated' as a connection cut mid-response", () => {
    assert.deepEqual(classifyPiError("terminated"), {
      type: "api-error",
      retriable: true,
      message: "API transport error: connection closed: the response stream was terminated",
    });
  });

  it("classifies status-less text by the shared rules", () => {
    assert.deepEqual(classifyPiError("Request timed out."), {
      type: "timeout",
      retriable: true,
      message: "Request timed out.",
    });
    assert.deepEqual(classifyPiError(""), {
      type: "api-error",
      retriable: true,
      message: "API error in result: Unknown error",
    });
  });
});
