import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { classifyFailureText } from "../classify-failure.ts";
import type { HarnessEvent } from "../harness.ts";
import { createTestHarness, makeRequest, runToEnd, tempWorkspace, until } from "./test-support.ts";

const ZERO_TOTALS = {
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
  costUsd: 0,
};
const types = (events: HarnessEvent[]) => events.map((e) => e.type);

describe("scripted harness: outcomes and stop signals", () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace();
  });
  afterEach(() => ws.remove());

  it("reports @usage increments and sums them, with no default increment", async () => {
    const prompt =
      "@usage input=100 output=20 cacheRead=5 cacheWrite=7 cost=0.25\n@say hi\n@usage input=10 output=2 cost=0.5";
    const { harness } = createTestHarness();
    const { events, outcome } = await runToEnd(harness, makeRequest(ws.dir, prompt));
    assert.deepEqual(
      events.filter((e) => e.type === "usage"),
      [
        {
          type: "usage",
          usage: {
            inputTokens: 100,
            outputTokens: 20,
            cacheCreationTokens: 7,
            cacheReadTokens: 5,
            costUsd: 0.25,
          },
        },
        {
          type: "usage",
          usage: {
            inputTokens: 10,
            outputTokens: 2,
            cacheCreationTokens: 0,
            cacheReadTokens: 0,
            costUsd: 0.5,
          },
        },
      ],
    );
    assert.deepEqual(outcome.totals, {
      inputTokens: 110,
      outputTokens: 22,
      cacheCreationTokens: 7,
      cacheReadTokens: 5,
      costUsd: 0.75,
    });
  });

  it("fails only on the attempts @fail names, with the shared classifier's reason", async () => {
    const text = "API Error: 500 Internal Server Error (overloaded_error)";
    const prompt = `@say start\n@fail attempts=1,3 ${text}\n@say end`;
    const { harness } = createTestHarness();
    const first = await runToEnd(harness, makeRequest(ws.dir, prompt, { attempt: 1 }));
    assert.deepEqual(types(first.events), ["session.started", "assistant.text", "turn.ended"]);
    assert.deepEqual(first.events.at(-1), { type: "turn.ended", reason: "error" });
    assert.deepEqual(first.outcome, {
      kind: "failed",
      sessionId: "id-1",
      reason: classifyFailureText(text, true),
      sessionEstablished: true,
      layers: { stream: "error", toolBatch: "completed", turn: "error" },
      totals: ZERO_TOTALS,
    });
    assert.equal(first.outcome.kind === "failed" && first.outcome.reason.retriable, true);
    const second = await runToEnd(harness, makeRequest(ws.dir, prompt, { attempt: 2 }));
    assert.equal(second.outcome.kind, "completed");
    assert.equal(second.outcome.kind === "completed" && second.outcome.resultText, "end");
    const limited = await runToEnd(
      harness,
      makeRequest(ws.dir, "@fail 429 rate_limit_error: slow down", { attempt: 4 }),
    );
    assert.equal(limited.outcome.kind === "failed" && limited.outcome.reason.type, "rate-limit");
  });

  it("@exhaust-context overflows without autoCompact and compacts with it", async () => {
    const prompt = "@usage input=100 output=50\n@exhaust-context\n@write never.txt x";
    const { harness } = createTestHarness();
    const overflow = await runToEnd(harness, makeRequest(ws.dir, prompt));
    assert.deepEqual(types(overflow.events), ["session.started", "usage", "turn.ended"]);
    assert.deepEqual(overflow.outcome, {
      kind: "context-exceeded",
      sessionId: "id-1",
      via: "overflow",
      layers: { stream: "error", toolBatch: "completed", turn: "error" },
      totals: { ...ZERO_TOTALS, inputTokens: 100, outputTokens: 50 },
    });
    const compacted = await runToEnd(harness, makeRequest(ws.dir, prompt, { autoCompact: true }));
    assert.deepEqual(compacted.events.slice(2), [
      { type: "compaction", preTokens: 1000 },
      { type: "turn.ended", reason: "completed" },
    ]);
    assert.equal(compacted.outcome.kind === "context-exceeded" && compacted.outcome.via, "compaction");
    assert.equal(existsSync(join(ws.dir, "never.txt")), false);
  });

  it("@fail with a context-overflow text is a context boundary, as in the real adapters", async () => {
    const { harness } = createTestHarness();
    const { outcome } = await runToEnd(
      harness,
      makeRequest(ws.dir, "@fail 400 invalid_request_error: prompt is too long"),
    );
    assert.equal(outcome.kind === "context-exceeded" && outcome.via, "overflow");
  });

  it("a @usage that pushes the context past the window is an overflow and is not reported", async () => {
    const { harness } = createTestHarness();
    const { events, outcome } = await runToEnd(
      harness,
      makeRequest(ws.dir, "@usage input=900 output=101\n@say never"),
    );
    assert.deepEqual(events, [
      { type: "session.started", sessionId: "id-1" },
      { type: "turn.ended", reason: "error" },
    ]);
    assert.equal(outcome.kind === "context-exceeded" && outcome.via, "overflow");
    assert.deepEqual(outcome.totals, ZERO_TOTALS);
  });

  it("resume continues the session's context until it overflows; compaction empties it", async () => {
    const { harness } = createTestHarness();
    const turn = "@usage input=300 output=100";
    const first = await runToEnd(harness, makeRequest(ws.dir, turn));
    assert.equal(first.outcome.sessionId, "id-1");
    const resume = (extension: number, autoCompact = false) =>
      runToEnd(harness, makeRequest(ws.dir, turn, { resumeSessionId: "id-1", extension, autoCompact }));
    const second = await resume(1);
    assert.deepEqual(second.events[0], { type: "session.started", sessionId: "id-1" });
    assert.equal(second.outcome.kind, "completed");
    const third = await resume(2);
    assert.equal(third.outcome.kind === "context-exceeded" && third.outcome.via, "overflow");
    const compacted = await resume(3, true);
    assert.deepEqual(compacted.events[1], { type: "compaction", preTokens: 1200 });
    const afterCompaction = await resume(4);
    assert.equal(afterCompaction.outcome.kind, "completed");
  });

  it("fails permanently when asked to resume an unknown session", async () => {
    const { harness } = createTestHarness();
    const { events, outcome } = await runToEnd(
      harness,
      makeRequest(ws.dir, "@say hi", { resumeSessionId: "nope" }),
    );
    assert.deepEqual(events, []);
    assert.deepEqual(outcome, {
      kind: "failed",
      reason: { type: "unknown", retriable: false, message: "Session nope not found" },
      sessionEstablished: false,
      layers: { stream: "error", toolBatch: "completed", turn: "error" },
      totals: ZERO_TOTALS,
    });
  });

  it("@max-tokens reports the truncated tool call without executing it", async () => {
    const { harness } = createTestHarness();
    const { events, outcome } = await runToEnd(harness, makeRequest(ws.dir, "@max-tokens\n@write a.txt x"));
    assert.deepEqual(events, [
      { type: "session.started", sessionId: "id-1" },
      {
        type: "tool.use",
        toolUseId: "id-2",
        toolName: "Write",
        input: { truncated: true, partialInput: '{"file_path": "' },
        effects: "none",
      },
      { type: "turn.ended", reason: "max-tokens" },
    ]);
    assert.deepEqual(outcome, {
      kind: "max-tokens",
      sessionId: "id-1",
      message:
        "Output stopped at the max output tokens limit (8192 tokens) in the middle of a Write tool call; the call was not executed",
      layers: { stream: "max-tokens", toolBatch: "completed", turn: "max-tokens" },
      totals: ZERO_TOTALS,
    });
    assert.equal(existsSync(join(ws.dir, "a.txt")), false);
  });

  it("@sleep waits on the injected clock", async () => {
    const { harness, clock } = createTestHarness();
    const session = harness.start(makeRequest(ws.dir, "@sleep 500\n@say woke\n@usage input=1 output=1"));
    await until(() => clock.pendingTimers() === 1);
    clock.advance(499);
    assert.equal(clock.pendingTimers(), 1);
    clock.advance(1);
    const outcome = await session.outcome;
    assert.equal(outcome.kind === "completed" && outcome.resultText, "woke");
  });

  it("an abort during @sleep ends the session as aborted and runs nothing after it", async () => {
    const { harness, clock } = createTestHarness();
    const controller = new AbortController();
    const prompt = "@write a.txt x\n@sleep 1000\n@write b.txt y";
    const session = harness.start(makeRequest(ws.dir, prompt, { signal: controller.signal }));
    await until(() => clock.pendingTimers() === 1);
    controller.abort("Idle timeout: no events received for 180000ms");
    const events: HarnessEvent[] = [];
    for await (const event of session) events.push(event);
    assert.deepEqual(events.at(-1), { type: "turn.ended", reason: "aborted" });
    assert.deepEqual(await session.outcome, {
      kind: "aborted",
      sessionId: "id-1",
      reason: "Idle timeout: no events received for 180000ms",
      layers: { stream: "aborted", toolBatch: "completed", turn: "aborted" },
      totals: ZERO_TOTALS,
    });
    assert.equal(clock.pendingTimers(), 0);
    assert.equal(readFileSync(join(ws.dir, "a.txt"), "utf8"), "x");
    assert.equal(existsSync(join(ws.dir, "b.txt")), false);
  });

  it("an abort during @run kills the command and reports the aborted tool call", async () => {
    const { harness, clock } = createTestHarness();
    const controller = new AbortController();
    const session = harness.start(
      makeRequest(ws.dir, "@run sleep 30 & wait\n@write after.txt x", { signal: controller.signal }),
    );
    const events: HarnessEvent[] = [];
    for await (const event of session) {
      events.push(event);
      if (event.type === "tool.use") controller.abort();
    }
    const outcome = await session.outcome;
    assert.deepEqual(events.slice(1, 3), [
      {
        type: "tool.use",
        toolUseId: "id-2",
        toolName: "Bash",
        input: { command: "sleep 30 & wait" },
        effects: "unknown",
      },
      {
        type: "tool.result",
        toolUseId: "id-2",
        toolName: "Bash",
        result: "[aborted]",
        isError: true,
        executionTimeMs: 0,
      },
    ]);
    assert.equal(outcome.kind === "aborted" && outcome.reason, String(controller.signal.reason));
    assert.deepEqual(outcome.layers, { stream: "aborted", toolBatch: "aborted", turn: "aborted" });
    assert.equal(clock.pendingTimers(), 0);
    assert.equal(existsSync(join(ws.dir, "after.txt")), false);
  });

  it("an abort before the start gives an aborted outcome and no events", async () => {
    const { harness } = createTestHarness();
    const { events, outcome } = await runToEnd(
      harness,
      makeRequest(ws.dir, "@say hi", { signal: AbortSignal.abort() }),
    );
    assert.deepEqual(events, []);
    assert.equal(outcome.kind, "aborted");
    assert.equal(outcome.sessionId, undefined);
  });

  it("an extension prompt runs like any prompt: @exhaust-context ends the chain", async () => {
    const { harness } = createTestHarness();
    await runToEnd(harness, makeRequest(ws.dir, "@say first"));
    const ext = await runToEnd(
      harness,
      makeRequest(ws.dir, "@exhaust-context", { resumeSessionId: "id-1", extension: 1 }),
    );
    assert.deepEqual(ext.events[0], { type: "session.started", sessionId: "id-1" });
    assert.equal(ext.outcome.kind === "context-exceeded" && ext.outcome.via, "overflow");
  });
});
