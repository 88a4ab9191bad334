import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createCommandHarness } from "./command-harness.ts";
import { NO_USAGE } from "./output-parser.ts";
import {
  createFakeClock,
  type FakeClock,
  fakeCommand,
  makeRequest,
  runToEnd,
  tempDir,
  testDeps,
} from "./test-support.ts";

describe("command harness: claude stream-json agents", () => {
  let ws: ReturnType<typeof tempDir>;
  let clock: FakeClock;
  beforeEach(() => {
    ws = tempDir();
    clock = createFakeClock();
  });
  afterEach(() => ws.remove());

  it("runs the agent in the request's cwd and normalizes its events, usage and cost", async () => {
    const command = fakeCommand("fake", ["ok", "--session-id", "{sessionId}", "--prompt", "{prompt}"]);
    const harness = createCommandHarness(command, testDeps(clock, ws.dir));
    assert.deepEqual(harness.capabilities, { resume: false, reportsCost: true, compaction: false });
    const { events, outcome } = await runToEnd(harness, makeRequest(ws.dir));
    assert.equal(readFileSync(join(ws.dir, "out.txt"), "utf8"), "prompt was: write the file");
    const usage = { inputTokens: 120, outputTokens: 30, cacheCreationTokens: 10, cacheReadTokens: 5 };
    assert.deepEqual(events, [
      { type: "session.started", sessionId: "id-1" },
      {
        type: "tool.use",
        toolUseId: "toolu_1",
        toolName: "Write",
        input: { file_path: "out.txt", content: "prompt was: write the file" },
      },
      {
        type: "tool.result",
        toolUseId: "toolu_1",
        toolName: "Write",
        result: "File created",
        isError: false,
        executionTimeMs: 0,
      },
      { type: "assistant.thinking", text: "hm" },
      { type: "assistant.text", text: "All done." },
      { type: "usage", usage: { ...usage, costUsd: 0.0125 } },
      { type: "turn.ended", reason: "completed" },
    ]);
    assert.deepEqual(outcome, {
      kind: "completed",
      sessionId: "id-1",
      totals: { ...usage, costUsd: 0.0125 },
      layers: { stream: "completed", toolBatch: "completed", turn: "completed" },
      resultText: "All done.",
    });
  });

  it("classifies a non-zero exit from its stderr: 429 rate_limit_error is a retriable rate limit", async () => {
    const harness = createCommandHarness(
      fakeCommand("fake", ["rate-limit", "{prompt}"]),
      testDeps(clock, ws.dir),
    );
    const { events, outcome } = await runToEnd(harness, makeRequest(ws.dir));
    assert.deepEqual(events, [{ type: "turn.ended", reason: "error" }]);
    assert.deepEqual(outcome, {
      kind: "failed",
      totals: NO_USAGE,
      layers: { stream: "error", toolBatch: "completed", turn: "error" },
      reason: {
        type: "rate-limit",
        retriable: true,
        message:
          'API rate limit: Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}} retry-after: 30 (exit code 1)',
        retryAfterMs: 30_000,
      },
      sessionEstablished: false,
    });
  });

  it("fails on a result with is_error, classified from its status, and skips the synthetic message", async () => {
    const harness = createCommandHarness(
      fakeCommand("fake", ["is-error", "{prompt}"]),
      testDeps(clock, ws.dir),
    );
    const { events, outcome } = await runToEnd(harness, makeRequest(ws.dir));
    assert.deepEqual(events, [
      { type: "session.started", sessionId: "sess-1" },
      { type: "usage", usage: { ...NO_USAGE, costUsd: 0 } },
      { type: "turn.ended", reason: "error" },
    ]);
    assert.deepEqual(outcome, {
      kind: "failed",
      sessionId: "sess-1",
      totals: { ...NO_USAGE, costUsd: 0 },
      layers: { stream: "error", toolBatch: "completed", turn: "error" },
      reason: {
        type: "api-error",
        retriable: true,
        message: "API server error: API Error: 500 Internal server error",
      },
      sessionEstablished: true,
    });
  });

  it("ends as context-exceeded when the agent reports a prompt that is too long", async () => {
    const harness = createCommandHarness(
      fakeCommand("fake", ["overflow", "{prompt}"]),
      testDeps(clock, ws.dir),
    );
    const { outcome } = await runToEnd(harness, makeRequest(ws.dir));
    assert.equal(outcome.kind, "context-exceeded");
    assert.equal(outcome.kind === "context-exceeded" && outcome.via, "overflow");
  });

  it("ends as max-tokens when the result's stop_reason is max_tokens", async () => {
    const harness = createCommandHarness(
      fakeCommand("fake", ["max-tokens", "{prompt}"]),
      testDeps(clock, ws.dir),
    );
    const { outcome } = await runToEnd(harness, makeRequest(ws.dir));
    assert.equal(outcome.kind, "max-tokens");
    assert.deepEqual(outcome.layers, { stream: "max-tokens", toolBatch: "completed", turn: "max-tokens" });
  });

  it("reports an exit without a result message as retriable once a session was established", async () => {
    const harness = createCommandHarness(fakeCommand("fake", ["crash", "{prompt}"]), testDeps(clock, ws.dir));
    const { outcome } = await runToEnd(harness, makeRequest(ws.dir));
    assert.equal(outcome.kind, "failed");
    assert.deepEqual(outcome.kind === "failed" && outcome.reason, {
      type: "api-error",
      retriable: true,
      message: "Codon process exited without a result message (exit code 3)",
    });
  });

  it("fails permanently, with no events, when the command cannot start", async () => {
    const command = { ...fakeCommand("fake", ["{prompt}"]), command: join(ws.dir, "no-such-agent") };
    const { events, outcome } = await runToEnd(
      createCommandHarness(command, testDeps(clock, ws.dir)),
      makeRequest(ws.dir),
    );
    assert.deepEqual(events, []);
    assert.equal(outcome.kind, "failed");
    assert.equal(outcome.kind === "failed" && outcome.reason.retriable, false);
    assert.match(
      outcome.kind === "failed" ? outcome.reason.message : "",
      /^Local setup\/process error \(no session established\): Could not start the agent command: spawn .*no-such-agent ENOENT$/,
    );
  });

  it("refuses tool settings before the agent starts: it cannot restrict a CLI agent's tools", async () => {
    const command = fakeCommand("fake", ["ok", "--session-id", "{sessionId}", "--prompt", "{prompt}"]);
    const harness = createCommandHarness(command, testDeps(clock, ws.dir));
    const { events, outcome } = await runToEnd(harness, makeRequest(ws.dir, { tools: { deny: ["Bash"] } }));
    assert.deepEqual(events, []);
    assert.equal(existsSync(join(ws.dir, "out.txt")), false, "the agent never ran");
    assert.equal(outcome.kind === "failed" && outcome.reason.retriable, false);
    assert.match(
      outcome.kind === "failed" ? outcome.reason.message : "",
      /^Tool settings cannot be applied to command\/fake: hankweave cannot restrict the tools of a command-line agent\. Remove/,
    );
  });
});
