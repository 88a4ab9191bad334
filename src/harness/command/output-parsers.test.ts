import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { HarnessEvent } from "../harness.ts";
import { createClaudeStreamParser } from "./claude-stream-parser.ts";
import type { OutputParser, ParserSink } from "./output-parser.ts";
import { createPiJsonParser } from "./pi-json-parser.ts";

function feed(
  make: (sink: ParserSink) => OutputParser,
  lines: unknown[],
): { parser: OutputParser; events: HarnessEvent[] } {
  const events: HarnessEvent[] = [];
  let now = 0;
  const parser = make({ emit: (e) => events.push(e), now: () => (now += 5) });
  for (const line of lines) parser.line(typeof line === "string" ? line : JSON.stringify(line));
  return { parser, events };
}

describe("claude stream-json parser", () => {
  it("ignores noise, reads compaction, measures tool time, and tracks a tool call left open", () => {
    const { parser, events } = feed(createClaudeStreamParser, [
      "not json",
      "",
      { type: "system", subtype: "init", session_id: "abc" },
      {
        type: "system",
        subtype: "compact_boundary",
        compact_metadata: { trigger: "auto", pre_tokens: 150000 },
      },
      { type: "system", subtype: "api_retry", attempt: 1 },
      {
        type: "assistant",
        session_id: "abc",
        message: { content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }] },
      },
      {
        type: "user",
        message: { content: [{ type: "tool_result", tool_use_id: "t1", content: "a\nb", is_error: true }] },
      },
      { type: "assistant", message: { content: [{ type: "tool_use", id: "t2", name: "Read", input: {} }] } },
    ]);
    assert.deepEqual(events, [
      { type: "session.started", sessionId: "abc" },
      { type: "compaction", preTokens: 150000 },
      { type: "tool.use", toolUseId: "t1", toolName: "Bash", input: { command: "ls" } },
      {
        type: "tool.result",
        toolUseId: "t1",
        toolName: "Bash",
        result: "a\nb",
        isError: true,
        executionTimeMs: 5,
      },
      { type: "tool.use", toolUseId: "t2", toolName: "Read", input: {} },
    ]);
    assert.equal(parser.pendingTools(), 1);
    assert.equal(parser.verdict(), undefined);
    assert.deepEqual(parser.totals(), {
      inputTokens: 0,
      outputTokens: 0,
      cacheCreationTokens: 0,
      cacheReadTokens: 0,
      costUsd: null,
    });
  });

  it("reads an error result: is_error decides, not subtype", () => {
    const { parser } = feed(createClaudeStreamParser, [
      {
        type: "result",
        subtype: "success",
        is_error: true,
        session_id: "abc",
        result: "API Error: Request rejected (429) · Number of requests has exceeded your rate limit",
        api_error_status: 429,
        total_cost_usd: 0,
      },
    ]);
    assert.equal(parser.sessionId(), "abc");
    assert.deepEqual(parser.verdict(), {
      kind: "error",
      failure: {
        status: 429,
        message: "API Error: Request rejected (429) · Number of requests has exceeded your rate limit",
      },
      overflow: false,
    });
    assert.deepEqual(parser.streams(), { last: "error", worst: "error" });
  });
});

describe("pi json parser", () => {
  it("reports no verdict before agent_end, and the last message's stop reason after it", () => {
    const { parser, events } = feed(createPiJsonParser, [
      { type: "session", id: "p1" },
      {
        type: "message_end",
        message: {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "plan" },
            { type: "text", text: "part" },
          ],
          stopReason: "length",
        },
      },
    ]);
    assert.equal(parser.verdict(), undefined);
    assert.deepEqual(events, [
      { type: "session.started", sessionId: "p1" },
      { type: "assistant.thinking", text: "plan" },
      { type: "assistant.text", text: "part" },
    ]);
    parser.line(JSON.stringify({ type: "agent_end", messages: [] }));
    assert.deepEqual(parser.verdict(), {
      kind: "max-tokens",
      message: "The agent's last response was cut at its output token limit",
    });
    assert.equal(parser.totals().costUsd, null);
  });

  it("reads a context overflow from the error message, with its status", () => {
    const errorMessage =
      "400 This model's maximum context length is 128000 tokens. However, your messages resulted in 210000 tokens.";
    const { parser } = feed(createPiJsonParser, [
      { type: "message_end", message: { role: "assistant", content: [], stopReason: "error", errorMessage } },
      { type: "agent_end", messages: [] },
      { type: "compaction_start", reason: "overflow" },
    ]);
    assert.deepEqual(parser.verdict(), {
      kind: "error",
      failure: { status: 400, message: errorMessage },
      overflow: true,
    });
  });
});
