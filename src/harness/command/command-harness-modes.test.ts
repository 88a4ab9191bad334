import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createCommandHarness } from "./command-harness.ts";
import { NO_USAGE } from "./output-parser.ts";
import {
  createFakeClock,
  FAKE_AGENT,
  type FakeClock,
  fakeCommand,
  makeRequest,
  runToEnd,
  tempDir,
  testDeps,
} from "./test-support.ts";

describe("command harness: text and pi agents, prompts and resume", () => {
  let ws: ReturnType<typeof tempDir>;
  let clock: FakeClock;
  beforeEach(() => {
    ws = tempDir();
    clock = createFakeClock();
  });
  afterEach(() => ws.remove());

  it("plain text: the prompt (system prompt first) on stdin, non-blank stdout lines as text, no usage, cost not reported", async () => {
    const command = fakeCommand("echo", ["text"], { output: "text", stdin: true });
    const harness = createCommandHarness(command, testDeps(clock, ws.dir));
    assert.deepEqual(harness.capabilities, { resume: false, reportsCost: false, compaction: false });
    const request = makeRequest(ws.dir, { prompt: "hello", systemPrompt: "be brief" });
    const { events, outcome } = await runToEnd(harness, request);
    assert.deepEqual(events, [
      { type: "assistant.text", text: "echo: BE BRIEF" },
      { type: "assistant.text", text: "HELLO" },
      { type: "assistant.text", text: "bye" },
      { type: "turn.ended", reason: "completed" },
    ]);
    assert.deepEqual(outcome, {
      kind: "completed",
      totals: NO_USAGE,
      layers: { stream: "completed", toolBatch: "completed", turn: "completed" },
      resultText: "echo: BE BRIEF\nHELLO\nbye",
    });
  });

  it("plain text: a non-zero exit before any output is a permanent local failure", async () => {
    const command = fakeCommand("echo", ["text-fail", "{prompt}"], { output: "text" });
    const { outcome } = await runToEnd(
      createCommandHarness(command, testDeps(clock, ws.dir)),
      makeRequest(ws.dir),
    );
    assert.deepEqual(outcome.kind === "failed" && outcome.reason, {
      type: "api-error",
      retriable: false,
      message:
        "Local setup/process error (no session established): fatal: something local broke (exit code 2)",
    });
  });

  it("passes the prompt in a file that is removed afterwards", async () => {
    const command = fakeCommand("file", ["prompt-file", "--file", "{promptFile}"], { output: "text" });
    const { events } = await runToEnd(
      createCommandHarness(command, testDeps(clock, ws.dir)),
      makeRequest(ws.dir),
    );
    assert.deepEqual(events[0], { type: "assistant.text", text: "file said: write the file" });
    assert.deepEqual(readdirSync(ws.dir), []);
  });

  it("pi json: session header, tool calls and results, usage per message with pi's cost", async () => {
    const command = fakeCommand("pi", ["pi", "--prompt", "{prompt}"], { output: "pi-json" });
    const { events, outcome } = await runToEnd(
      createCommandHarness(command, testDeps(clock, ws.dir)),
      makeRequest(ws.dir),
    );
    assert.deepEqual(events, [
      { type: "session.started", sessionId: "pi-session-1" },
      { type: "tool.use", toolUseId: "call_1", toolName: "bash", input: { command: "echo hi" } },
      {
        type: "usage",
        usage: {
          inputTokens: 100,
          outputTokens: 10,
          cacheCreationTokens: 0,
          cacheReadTokens: 2,
          costUsd: 0.001,
        },
      },
      {
        type: "tool.result",
        toolUseId: "call_1",
        toolName: "bash",
        result: "hi\n",
        isError: false,
        executionTimeMs: 0,
      },
      { type: "assistant.text", text: "pi done" },
      {
        type: "usage",
        usage: {
          inputTokens: 50,
          outputTokens: 5,
          cacheCreationTokens: 0,
          cacheReadTokens: 2,
          costUsd: 0.0005,
        },
      },
      { type: "turn.ended", reason: "completed" },
    ]);
    assert.deepEqual(outcome, {
      kind: "completed",
      sessionId: "pi-session-1",
      totals: {
        inputTokens: 150,
        outputTokens: 15,
        cacheCreationTokens: 0,
        cacheReadTokens: 4,
        costUsd: 0.0015,
      },
      layers: { stream: "completed", toolBatch: "completed", turn: "completed" },
      resultText: "pi done",
    });
  });

  it("pi json: an error in the last assistant message fails the session although pi exits 0", async () => {
    const command = fakeCommand("pi", ["pi", "--fail", "{prompt}"], { output: "pi-json" });
    const { outcome } = await runToEnd(
      createCommandHarness(command, testDeps(clock, ws.dir)),
      makeRequest(ws.dir),
    );
    assert.equal(outcome.kind, "failed");
    assert.deepEqual(outcome.kind === "failed" && outcome.reason, {
      type: "rate-limit",
      retriable: true,
      message: 'API rate limit: 429 {"type":"error","error":{"type":"rate_limit_error"}}',
    });
  });

  it("resumes with resumeArgs and the session id, and declares resume only then", async () => {
    const command = fakeCommand("fake", ["ok", "{prompt}"], {
      resumeArgs: [FAKE_AGENT, "ok", "--resume", "{sessionId}"],
    });
    const harness = createCommandHarness(command, testDeps(clock, ws.dir));
    assert.equal(harness.capabilities.resume, true);
    const { outcome } = await runToEnd(harness, makeRequest(ws.dir, { resumeSessionId: "sess-77" }));
    assert.equal(outcome.sessionId, "sess-77");
    assert.equal(outcome.kind, "completed");
  });

  it("refuses to resume without resumeArgs, and to run without a value for {model}", async () => {
    const plain = createCommandHarness(fakeCommand("fake", ["ok", "{prompt}"]), testDeps(clock, ws.dir));
    const resumed = await runToEnd(plain, makeRequest(ws.dir, { resumeSessionId: "s" }));
    assert.deepEqual(resumed.events, []);
    assert.deepEqual(resumed.outcome.kind === "failed" && resumed.outcome.reason, {
      type: "api-error",
      retriable: false,
      message: 'Command model "fake" cannot resume a session: it has no "resumeArgs"',
    });
    const needsModel = createCommandHarness(
      fakeCommand("fake", ["ok", "--model", "{model}", "{prompt}"]),
      testDeps(clock, ws.dir),
    );
    const { outcome } = await runToEnd(needsModel, makeRequest(ws.dir));
    assert.deepEqual(
      outcome.kind === "failed" && outcome.reason.message,
      'Command model "fake" needs a value for {model}: name the model in the id (command/fake/<model>) or set "model" in its configuration',
    );
  });

  it("fills {model} from the model id's suffix", async () => {
    const command = fakeCommand("fake", ["ok", "--prompt", "{model}"]);
    const model = { requested: "command/fake/opus", id: "command/fake/opus", provider: "command" };
    await runToEnd(createCommandHarness(command, testDeps(clock, ws.dir)), makeRequest(ws.dir, { model }));
    assert.equal(readFileSync(join(ws.dir, "out.txt"), "utf8"), "prompt was: opus");
  });
});
