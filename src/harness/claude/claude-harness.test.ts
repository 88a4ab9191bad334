import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type FakeScript, markerScript, startFakeAnthropic } from "../../testing/fake-providers/index.ts";
import type { SessionRequest } from "../harness.ts";
import { createClaudeHarness } from "./claude-harness.ts";
import {
  claudeRequest,
  eventShapes,
  fakeEnv,
  runToEnd,
  type TempExecution,
  tempExecution,
} from "./claude-test-support.ts";

/**
 * The real SDK (and its bundled Claude Code) against the fake Anthropic server. Each session costs
 * about a second and 215 MB, so the suite keeps to a dozen sessions, run one after another.
 */
describe("Claude harness: a session against the fake provider", { concurrency: false }, () => {
  let exec: TempExecution;
  before(() => {
    exec = tempExecution();
  });
  after(() => exec.remove());

  it("writes a file, runs a command, answers, and reports usage and cost", async () => {
    const usage = { inputTokens: 1000, outputTokens: 100 };
    const fake = await startFakeAnthropic(
      markerScript({ content: "hello\n", usage, finalText: () => "All done." }),
    );
    try {
      const harness = createClaudeHarness({ maxRetries: 0 });
      const prompt = "Do it.\nWRITE_FILE=notes/hello.txt\nRUN=cat notes/hello.txt > ran.txt";
      const request = claudeRequest(exec.agentRoot, fakeEnv(fake.baseUrl), prompt, {
        systemPrompt: "HANKWEAVE-APPENDED-SYSTEM-PROMPT",
      });
      const { events, outcome } = await runToEnd(harness, request);
      assert.deepEqual(eventShapes(events), [
        "session.started",
        "tool.use Write",
        "usage",
        "tool.result Write",
        "file.changed created notes/hello.txt",
        "tool.use Bash",
        "usage",
        "tool.result Bash",
        "text All done.",
        "usage",
        "turn.ended completed",
      ]);
      assert.equal(readFileSync(join(exec.agentRoot, "notes/hello.txt"), "utf8"), "hello\n");
      assert.equal(readFileSync(join(exec.agentRoot, "ran.txt"), "utf8"), "hello\n");
      assert.equal(outcome.kind, "completed");
      assert.deepEqual(outcome.layers, { stream: "completed", toolBatch: "completed", turn: "completed" });
      assert.equal(outcome.kind === "completed" && outcome.resultText, "All done.");
      const increments = events.flatMap((e) => (e.type === "usage" ? [e.usage] : []));
      assert.deepEqual(increments[0], {
        inputTokens: 1000,
        outputTokens: 100,
        cacheCreationTokens: 0,
        cacheReadTokens: 0,
        costUsd: null,
      });
      assert.deepEqual(
        { ...outcome.totals, costUsd: round(outcome.totals.costUsd) },
        {
          inputTokens: 3000,
          outputTokens: 300,
          cacheCreationTokens: 0,
          cacheReadTokens: 0,
          costUsd: 0.0135,
        },
      );
      assert.deepEqual(
        fake.requests.map((r) => r.route),
        ["messages", "messages", "messages"],
      );
      assert.match(JSON.stringify(asBody(fake.requests[0]?.body).system), /HANKWEAVE-APPENDED-SYSTEM-PROMPT/);
      assert.equal(readdirSync(join(exec.dir, ".hankweave", "claude", "projects")).length, 1);
    } finally {
      await fake.close();
    }
  });

  it("resumes a session by id (continue-previous): same id, history replayed, its own cost only", async () => {
    const usage = { inputTokens: 1000, outputTokens: 100 };
    const fake = await startFakeAnthropic((request) => ({
      type: "text",
      text: `reply ${request.requestIndex}`,
      usage,
    }));
    try {
      const harness = createClaudeHarness({ maxRetries: 0 });
      const env = fakeEnv(fake.baseUrl);
      const first = await runToEnd(harness, claudeRequest(exec.agentRoot, env, "first prompt"));
      const firstId = first.outcome.sessionId;
      assert.equal(typeof firstId, "string");
      const second = await runToEnd(
        harness,
        claudeRequest(exec.agentRoot, env, "second prompt", { resumeSessionId: firstId ?? "", extension: 1 }),
      );
      assert.deepEqual(second.events[0], { type: "session.started", sessionId: firstId });
      assert.equal(second.outcome.sessionId, firstId);
      assert.equal(second.outcome.kind === "completed" && second.outcome.resultText, "reply 1");
      assert.deepEqual(
        fake.requests.map((r) => messageCount(r.body)),
        [1, 3],
      );
      assert.equal(round(first.outcome.totals.costUsd), 0.0045);
      assert.equal(round(second.outcome.totals.costUsd), 0.0045);
    } finally {
      await fake.close();
    }
  });
});

describe("Claude harness: provider faults", { concurrency: false }, () => {
  let exec: TempExecution;
  before(() => {
    exec = tempExecution();
  });
  after(() => exec.remove());

  async function runFault(script: FakeScript, options: { maxRetries: number }) {
    const fake = await startFakeAnthropic(script);
    try {
      const harness = createClaudeHarness(options);
      const result = await runToEnd(harness, claudeRequest(exec.agentRoot, fakeEnv(fake.baseUrl), "Work."));
      return { ...result, requests: fake.requests.length, port: fake.port };
    } finally {
      await fake.close();
    }
  }

  it("a 429 with retry-after: Claude Code retries once, then a retriable rate-limit failure with the hint", async () => {
    const { outcome, requests } = await runFault(
      [
        { type: "rate-limit", retryAfterSeconds: 1 },
        { type: "rate-limit", retryAfterSeconds: 1 },
      ],
      {
        maxRetries: 1,
      },
    );
    assert.equal(requests, 2);
    assert.equal(outcome.kind, "failed");
    if (outcome.kind !== "failed") return;
    assert.equal(outcome.reason.type, "rate-limit");
    assert.equal(outcome.reason.retriable, true);
    assert.equal(
      outcome.reason.message,
      "API rate limit: API Error: Request rejected (429) · Number of requests has exceeded your rate limit",
    );
    // Claude Code's own wait before its retry: the provider's 1 s plus its jitter.
    const hint = outcome.reason.retryAfterMs ?? 0;
    assert.equal(hint >= 1000 && hint < 3000, true, `retryAfterMs ${hint}`);
    assert.equal(outcome.sessionEstablished, true);
    assert.deepEqual(outcome.layers, { stream: "error", toolBatch: "completed", turn: "error" });
  });

  it("a 500 and a 529 are retriable server errors", async () => {
    for (const [fault, text] of [
      [{ type: "server-error" }, "API Error: 500 Internal server error"],
      [{ type: "overloaded" }, "API Error: 529 Overloaded"],
    ] as const) {
      const { outcome, events } = await runFault([fault], { maxRetries: 0 });
      assert.equal(outcome.kind, "failed");
      if (outcome.kind !== "failed") continue;
      assert.equal(outcome.reason.type, "api-error");
      assert.equal(outcome.reason.retriable, true);
      assert.equal(
        outcome.reason.message.startsWith(`API server error: ${text}`),
        true,
        outcome.reason.message,
      );
      assert.deepEqual(eventShapes(events), ["session.started", "turn.ended error"]);
    }
  });

  it("a connection reset mid-stream is a retriable transport failure", async () => {
    const { outcome, requests } = await runFault(() => ({ type: "connection-reset", afterEvents: 2 }), {
      maxRetries: 0,
    });
    // Claude Code retries a broken stream once without streaming, which the fake also breaks.
    assert.equal(requests, 2);
    assert.equal(outcome.kind, "failed");
    if (outcome.kind !== "failed") return;
    assert.equal(outcome.reason.retriable, true);
    assert.equal(
      outcome.reason.message,
      "API transport error: API Error: Connection dropped (ECONNRESET). Check the gateway set in ANTHROPIC_BASE_URL, then try again.",
    );
  });

  it("a stalled stream ends as aborted when the request's signal fires", async () => {
    const fake = await startFakeAnthropic(() => {
      arrived();
      return { type: "stall", afterEvents: 1 };
    });
    let arrived: () => void = () => undefined;
    const requestArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    try {
      const controller = new AbortController();
      const harness = createClaudeHarness({ maxRetries: 0 });
      const request = claudeRequest(exec.agentRoot, fakeEnv(fake.baseUrl), "Work.", {
        signal: controller.signal,
      });
      const running = runToEnd(harness, request);
      await requestArrived;
      controller.abort("cancelled");
      const { outcome, events } = await running;
      assert.equal(outcome.kind, "aborted");
      assert.equal(outcome.kind === "aborted" && outcome.reason, "cancelled");
      assert.deepEqual(outcome.layers, { stream: "aborted", toolBatch: "completed", turn: "aborted" });
      assert.deepEqual(eventShapes(events), ["session.started", "turn.ended aborted"]);
    } finally {
      await fake.close();
    }
  });
});

describe("Claude harness: context window and output limits", { concurrency: false }, () => {
  let exec: TempExecution;
  before(() => {
    exec = tempExecution();
  });
  after(() => exec.remove());

  async function run(script: FakeScript, prompt: string, overrides: Partial<SessionRequest> = {}, env = {}) {
    const fake = await startFakeAnthropic(script);
    try {
      const harness = createClaudeHarness({ maxRetries: 0 });
      const request = claudeRequest(exec.agentRoot, fakeEnv(fake.baseUrl, env), prompt, overrides);
      const result = await runToEnd(harness, request);
      return { ...result, requests: fake.requests.length };
    } finally {
      await fake.close();
    }
  }

  it("a 400 'prompt is too long' ends the session as context-exceeded via overflow", async () => {
    const { outcome } = await run([{ type: "prompt-too-long" }], "Work.");
    assert.equal(outcome.kind, "context-exceeded");
    assert.equal(outcome.kind === "context-exceeded" && outcome.via, "overflow");
    assert.deepEqual(outcome.layers, { stream: "error", toolBatch: "completed", turn: "error" });
  });

  it("without autoCompact a full window stops Claude Code before the next request: overflow", async () => {
    const script: FakeScript = [
      {
        type: "tool",
        calls: [{ tool: "bash", input: { command: "echo one > one.txt" } }],
        usage: { inputTokens: 199_000 },
      },
    ];
    const { outcome, requests } = await run(script, "Work.");
    assert.equal(requests, 1);
    assert.equal(outcome.kind === "context-exceeded" && outcome.via, "overflow");
  });

  it("with autoCompact an automatic compaction is the contextExceeded signal", async () => {
    let compacted = false;
    const script: FakeScript = (request) => {
      // Claude Code's summary request ends with its instruction to answer in text only.
      if (JSON.stringify(request.body.messages).includes("Respond with TEXT ONLY")) {
        compacted = true;
        return { type: "text", text: "<summary>Wrote four files.</summary>", usage: { inputTokens: 1000 } };
      }
      if (compacted || request.step >= 4)
        return { type: "text", text: "All done.", usage: { inputTokens: 3000 } };
      const inputTokens = request.step === 3 ? 150_000 : 1000;
      const command = `echo ${request.step} > step${request.step}.txt`;
      return { type: "tool", calls: [{ tool: "bash", input: { command } }], usage: { inputTokens } };
    };
    const window = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" };
    const { outcome, events } = await run(script, "Work.", { autoCompact: true }, window);
    const compactions = events.filter((e) => e.type === "compaction");
    assert.equal(compactions.length, 1);
    assert.equal(compacted, true);
    assert.equal(outcome.kind === "context-exceeded" && outcome.via, "compaction");
    assert.deepEqual(outcome.layers, { stream: "completed", toolBatch: "completed", turn: "completed" });
    assert.equal(existsSync(join(exec.agentRoot, "step3.txt")), true);
  });

  it("max tokens inside a complete-looking tool call: the call is denied, never executed", async () => {
    const call = { tool: "write", input: { file_path: "cut.txt", content: "looks complete" } };
    const { outcome, events, requests } = await run([{ type: "max-tokens", call, keepChars: 1000 }], "Work.");
    assert.equal(requests, 1);
    assert.equal(existsSync(join(exec.agentRoot, "cut.txt")), false);
    assert.deepEqual(eventShapes(events), [
      "session.started",
      "tool.use Write",
      "usage",
      "tool.result Write error",
      "turn.ended max-tokens",
    ]);
    assert.deepEqual(outcome, {
      kind: "max-tokens",
      message:
        "Output stopped at the max output tokens limit in the middle of a Write tool call; the call was not executed",
      layers: { stream: "max-tokens", toolBatch: "completed", turn: "max-tokens" },
      sessionId: outcome.sessionId,
      totals: outcome.totals,
    });
  });

  it("max tokens cutting a tool call's JSON: not executed, and the session stops there", async () => {
    const call = { tool: "write", input: { file_path: "cut.txt", content: "never written" } };
    const { outcome, events, requests } = await run([{ type: "max-tokens", call }], "Work.");
    assert.equal(requests, 1);
    assert.equal(existsSync(join(exec.agentRoot, "cut.txt")), false);
    const use = events.find((e) => e.type === "tool.use");
    assert.deepEqual(use?.type === "tool.use" && use.input, {
      truncated: true,
      partialInput: '{"file_path":"cut.txt","',
    });
    assert.equal(outcome.kind, "max-tokens");
  });
});

function round(value: number | null): number | null {
  return value === null ? null : Math.round(value * 1e9) / 1e9;
}

function messageCount(body: unknown): number {
  const messages = asBody(body).messages;
  return Array.isArray(messages) ? messages.length : 0;
}

function asBody(body: unknown): Record<string, unknown> {
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
}
