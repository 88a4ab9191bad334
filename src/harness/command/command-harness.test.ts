import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createCommandHarness } from "./command-harness.ts";
import { NO_USAGE } from "./output-parser.ts";
import {
  createFakeClock,
  type FakeClock,
  fakeCommand,
  isRunning,
  makeRequest,
  readPids,
  runToEnd,
  tempDir,
  testDeps,
} from "./test-support.ts";

/** Yields to the event loop (no timers) until `condition` holds; fails after many turns. */
async function eventually(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100_000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.fail("condition never held");
}

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
});

describe("command harness: aborts and the process group", () => {
  let ws: ReturnType<typeof tempDir>;
  let clock: FakeClock;
  beforeEach(() => {
    ws = tempDir();
    clock = createFakeClock();
  });
  afterEach(() => ws.remove());

  it("an abort (the engine's idle timeout) stops the whole group and leaves no process behind", async () => {
    const controller = new AbortController();
    const harness = createCommandHarness(fakeCommand("fake", ["hang", "{prompt}"]), testDeps(clock, ws.dir));
    const session = harness.start(makeRequest(ws.dir, { signal: controller.signal }));
    const events = [];
    for await (const event of session) {
      events.push(event);
      if (event.type === "tool.use") controller.abort("Idle timeout: no events received for 180000ms");
    }
    const outcome = await session.outcome;
    assert.deepEqual(outcome, {
      kind: "aborted",
      sessionId: "sess-1",
      totals: NO_USAGE,
      layers: { stream: "aborted", toolBatch: "aborted", turn: "aborted" },
      reason: "Idle timeout: no events received for 180000ms",
    });
    assert.deepEqual(events.at(-1), { type: "turn.ended", reason: "aborted" });
    const pids = readPids(ws.dir);
    await eventually(() => !isRunning(pids.agent) && !isRunning(pids.grandchild));
  });

  it("escalates to SIGKILL after the grace period, on the injected clock", async () => {
    const controller = new AbortController();
    const command = fakeCommand("fake", ["stubborn", "{prompt}"], { output: "text", killGraceMs: 2_000 });
    const session = createCommandHarness(command, testDeps(clock, ws.dir)).start(
      makeRequest(ws.dir, { signal: controller.signal }),
    );
    const texts: string[] = [];
    for await (const event of session) {
      if (event.type !== "assistant.text") continue;
      texts.push(event.text);
      if (event.text === "ready") controller.abort("stop");
      if (event.text === "got SIGTERM") {
        const { agent, grandchild } = readPids(ws.dir);
        assert.equal(isRunning(agent), true);
        await eventually(() => !isRunning(grandchild));
        clock.advance(2_000);
      }
    }
    const outcome = await session.outcome;
    assert.deepEqual(texts, ["ready", "got SIGTERM"]);
    assert.equal(outcome.kind, "aborted");
    await eventually(() => !isRunning(readPids(ws.dir).agent));
  });

  it("does not start the agent when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort("cancelled");
    const harness = createCommandHarness(fakeCommand("fake", ["ok", "{prompt}"]), testDeps(clock, ws.dir));
    const { events, outcome } = await runToEnd(harness, makeRequest(ws.dir, { signal: controller.signal }));
    assert.deepEqual(events, []);
    assert.deepEqual(outcome, {
      kind: "aborted",
      reason: "cancelled",
      layers: { stream: "aborted", toolBatch: "completed", turn: "aborted" },
      totals: NO_USAGE,
    });
    assert.equal(existsSync(join(ws.dir, "out.txt")), false);
  });
});

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
      resumeArgs: [FAKE_AGENT_PATH(), "ok", "--resume", "{sessionId}"],
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

function FAKE_AGENT_PATH(): string {
  return fakeCommand("x", []).args[0] ?? "";
}
