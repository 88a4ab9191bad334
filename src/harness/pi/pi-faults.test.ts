import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  type FakeReply,
  type FakeScript,
  startFakeAnthropic,
  startFakeOpenAI,
} from "../../testing/fake-providers/index.ts";
import type { SessionOutcome, SessionRequest } from "../harness.ts";
import { createPiHarness } from "./pi-harness.ts";
import { PI_INSTALL_HINT } from "./pi-sdk.ts";
import {
  collect,
  eventSummary,
  fakeOptions,
  fakeRequest,
  type PiWorkspace,
  piWorkspace,
} from "./pi-test-support.ts";
import { truncatedCallMessage } from "./truncation-guard.ts";

// Faults through the real pi SDK against the fake OpenAI server (one SDK import for this file).

let workspace: PiWorkspace;
before(() => {
  workspace = piWorkspace();
});
after(() => workspace.remove());

/** Runs one session against a fresh fake server; `requests` is how many model requests it received. */
async function runScript(script: FakeScript, overrides: Partial<SessionRequest> = {}, prompt = "go") {
  const server = await startFakeOpenAI(script);
  try {
    const harness = createPiHarness(fakeOptions(workspace, server.baseUrl));
    const result = await collect(harness.start(fakeRequest(workspace, prompt, overrides)));
    return { ...result, requests: server.requests.length };
  } finally {
    await server.close();
  }
}

function failure(outcome: SessionOutcome) {
  assert.ok(outcome.kind === "failed", `expected failed, got ${outcome.kind}`);
  return outcome;
}

describe("pi harness: provider errors are classified, never retried by pi", () => {
  it("429 with a retry hint: rate-limit, retriable, with the hint", async () => {
    const reply: FakeReply = {
      type: "rate-limit",
      retryAfterSeconds: 2,
      message: "Rate limit reached for requests. Please try again in 2s.",
    };
    const { outcome, requests, events } = await runScript([reply]);
    assert.equal(requests, 1);
    const failed = failure(outcome);
    assert.deepEqual(failed.reason, {
      type: "rate-limit",
      retriable: true,
      message: "API rate limit: 429 Rate limit reached for requests. Please try again in 2s.",
      retryAfterMs: 2000,
    });
    assert.equal(failed.sessionEstablished, true);
    assert.deepEqual(failed.layers, { stream: "error", toolBatch: "completed", turn: "error" });
    assert.deepEqual(eventSummary(events), ["session.started", "turn.ended:error"]);
  });

  it("500: a retriable server error", async () => {
    const { outcome, requests } = await runScript([{ type: "server-error", message: "boom" }]);
    assert.equal(requests, 1);
    assert.deepEqual(failure(outcome).reason, {
      type: "api-error",
      retriable: true,
      message: "API server error: 500 boom",
    });
  });

  it("a refused connection: a retriable transport error", async () => {
    const closed = await startFakeOpenAI([]);
    await closed.close();
    const harness = createPiHarness(fakeOptions(workspace, closed.baseUrl));
    const { outcome } = await collect(harness.start(fakeRequest(workspace, "go")));
    assert.deepEqual(failure(outcome).reason, {
      type: "api-error",
      retriable: true,
      message: "API transport error: Connection error.",
    });
  });

  for (const afterEvents of [0, 2]) {
    it(`a connection reset after ${afterEvents} stream events: a retriable transport error`, async () => {
      const { outcome, requests } = await runScript([{ type: "connection-reset", afterEvents }]);
      assert.equal(requests, 1);
      assert.deepEqual(failure(outcome).reason, {
        type: "api-error",
        retriable: true,
        message: "API transport error: connection closed: the response stream was terminated",
      });
    });
  }
});

describe("pi harness: cancel", () => {
  it("a stalled stream ends aborted when the signal fires, with the signal's reason", async () => {
    const controller = new AbortController();
    const script: FakeScript = () => {
      setImmediate(() => controller.abort("idle timeout"));
      return { type: "stall", afterEvents: 2 };
    };
    const { outcome, events } = await runScript(script, { signal: controller.signal });
    assert.equal(outcome.kind, "aborted");
    assert.ok(outcome.kind === "aborted");
    assert.equal(outcome.reason, "idle timeout");
    assert.deepEqual(outcome.layers, { stream: "aborted", toolBatch: "completed", turn: "aborted" });
    assert.deepEqual(eventSummary(events), ["session.started", "turn.ended:aborted"]);
  });

  it("a cancel while bash runs stops the command; the tool batch and the turn end aborted", async () => {
    const server = await startFakeOpenAI([
      { type: "tool", calls: [{ tool: "bash", input: { command: "sleep 30; echo late > late.txt" } }] },
    ]);
    try {
      const controller = new AbortController();
      const harness = createPiHarness(fakeOptions(workspace, server.baseUrl));
      const session = harness.start(fakeRequest(workspace, "go", { signal: controller.signal }));
      const seen: string[] = [];
      for await (const event of session) {
        seen.push(event.type);
        if (event.type === "tool.use") controller.abort("cancelled by test");
      }
      const outcome = await session.outcome;
      assert.ok(outcome.kind === "aborted");
      assert.equal(outcome.reason, "cancelled by test");
      assert.equal(outcome.layers.toolBatch, "aborted");
      assert.equal(outcome.layers.turn, "aborted");
      assert.deepEqual(seen.slice(0, 3), ["session.started", "usage", "tool.use"]);
      assert.equal(existsSync(join(workspace.cwd, "late.txt")), false);
      assert.equal(server.requests.length, 1);
    } finally {
      await server.close();
    }
  });

  it("a signal that fired before the start ends aborted without events or requests", async () => {
    const controller = new AbortController();
    controller.abort("stop");
    const { outcome, events, requests } = await runScript([], { signal: controller.signal });
    assert.deepEqual(events, []);
    assert.equal(requests, 0);
    assert.equal(outcome.kind, "aborted");
  });
});

describe("pi harness: the context window", () => {
  it("an overflow without autoCompact is context-exceeded via overflow", async () => {
    const { outcome, requests } = await runScript([{ type: "prompt-too-long" }]);
    assert.equal(requests, 1);
    assert.equal(outcome.kind, "context-exceeded");
    assert.ok(outcome.kind === "context-exceeded");
    assert.equal(outcome.via, "overflow");
    assert.deepEqual(outcome.layers, { stream: "error", toolBatch: "completed", turn: "error" });
  });

  it("with autoCompact, pi compacts (one summary request) and the session ends via compaction", async () => {
    const script: FakeReply[] = [{ type: "prompt-too-long" }, { type: "text", text: "Summary of the work." }];
    const { outcome, requests, events } = await runScript(script, { autoCompact: true });
    assert.equal(requests, 2);
    assert.ok(outcome.kind === "context-exceeded");
    assert.equal(outcome.via, "compaction");
    assert.deepEqual(eventSummary(events), ["session.started", "turn.ended:error", "compaction"]);
  });
});

describe("pi harness: max tokens", () => {
  it("a tool call cut off at max tokens is not executed, and the session stops there", async () => {
    const call = { tool: "write", input: { path: "cut.txt", content: "a long text that is cut off" } };
    const { outcome, events, requests } = await runScript([
      { type: "max-tokens", call, keepChars: 30 },
      { type: "text", text: "never asked" },
    ]);
    assert.equal(existsSync(join(workspace.cwd, "cut.txt")), false);
    assert.equal(requests, 1);
    assert.deepEqual(eventSummary(events), [
      "session.started",
      "usage",
      "tool.use:write:none",
      "tool.result:write:error",
      "turn.ended:max-tokens",
    ]);
    const result = events.find((e) => e.type === "tool.result");
    assert.ok(result?.type === "tool.result");
    assert.equal(result.result, truncatedCallMessage("write"));
    assert.ok(outcome.kind === "max-tokens");
    assert.equal(
      outcome.message,
      "The response was cut off at the model's output token limit (max tokens 4096); the truncated tool call write was not executed",
    );
    assert.deepEqual(outcome.layers, { stream: "max-tokens", toolBatch: "completed", turn: "max-tokens" });
  });
});

describe("pi harness: refusals before a session", () => {
  it("a missing SDK fails permanently with the install hint", async () => {
    const harness = createPiHarness(fakeOptions(workspace, "http://127.0.0.1:9"), async () => ({
      ok: false,
      message: PI_INSTALL_HINT,
    }));
    const { events, outcome } = await collect(harness.start(fakeRequest(workspace, "go")));
    assert.deepEqual(events, []);
    const failed = failure(outcome);
    assert.deepEqual(failed.reason, { type: "unknown", retriable: false, message: PI_INSTALL_HINT });
    assert.equal(failed.sessionEstablished, false);
  });

  it("a provider pi does not know, with no endpoint, names the variables to set", async () => {
    const harness = createPiHarness({ sessionDir: workspace.sessionDir, resolveModel: () => undefined });
    const model = { requested: "pi/local/qwen3", id: "qwen3", provider: "local" };
    const { outcome } = await collect(harness.start(fakeRequest(workspace, "go", { model })));
    assert.equal(
      failure(outcome).reason.message,
      "pi does not know provider 'local' (model qwen3). Point it at an endpoint: set HANKWEAVE_PI_LOCAL_BASE_URL " +
        "(and HANKWEAVE_PI_LOCAL_API=openai-completions|anthropic-messages, HANKWEAVE_PI_LOCAL_API_KEY if the server needs one), " +
        "or configure providers.local in the harness options.",
    );
  });

  it("a known provider without its key in the agent environment fails permanently", async () => {
    const harness = createPiHarness({ sessionDir: workspace.sessionDir, resolveModel: () => undefined });
    const model = {
      requested: "groq/llama-3.3-70b-versatile",
      id: "llama-3.3-70b-versatile",
      provider: "groq",
    };
    const { outcome } = await collect(harness.start(fakeRequest(workspace, "go", { model })));
    const failed = failure(outcome);
    assert.equal(failed.reason.retriable, false);
    assert.equal(
      failed.reason.message,
      "No API key for pi provider 'groq': set GROQ_API_KEY in the environment",
    );
  });
});

describe("pi harness: an endpoint from the agent environment", () => {
  it("runs pi/<provider>/<model> against HANKWEAVE_PI_<PROVIDER>_BASE_URL; cost unknown without prices", async () => {
    const server = await startFakeOpenAI([
      { type: "text", text: "local hello", usage: { inputTokens: 10, outputTokens: 2 } },
    ]);
    try {
      const harness = createPiHarness({ sessionDir: workspace.sessionDir, resolveModel: () => undefined });
      const model = { requested: "pi/local/qwen3", id: "qwen3", provider: "local" };
      const env = { ...fakeRequest(workspace, "").env, HANKWEAVE_PI_LOCAL_BASE_URL: `${server.baseUrl}/v1` };
      const { outcome, events } = await collect(harness.start(fakeRequest(workspace, "hi", { model, env })));
      assert.ok(outcome.kind === "completed");
      assert.equal(outcome.resultText, "local hello");
      assert.equal(outcome.totals.costUsd, null);
      const usage = events.find((e) => e.type === "usage");
      assert.ok(usage?.type === "usage");
      assert.deepEqual(usage.usage, {
        inputTokens: 10,
        outputTokens: 2,
        cacheCreationTokens: 0,
        cacheReadTokens: 0,
        costUsd: null,
      });
      const body = server.requests[0]?.body as { model: string };
      assert.equal(body.model, "qwen3");
      assert.equal(server.requests[0]?.headers.authorization, "Bearer none");
    } finally {
      await server.close();
    }
  });

  it("speaks Anthropic Messages when HANKWEAVE_PI_<PROVIDER>_API says so", async () => {
    const server = await startFakeAnthropic([{ type: "text", text: "messages hello" }]);
    try {
      const harness = createPiHarness({ sessionDir: workspace.sessionDir, resolveModel: () => undefined });
      const model = { requested: "pi/proxy/sonnet-ish", id: "sonnet-ish", provider: "proxy" };
      const env = {
        ...fakeRequest(workspace, "").env,
        HANKWEAVE_PI_PROXY_BASE_URL: server.baseUrl,
        HANKWEAVE_PI_PROXY_API: "anthropic-messages",
        HANKWEAVE_PI_PROXY_API_KEY: "proxy-key",
      };
      const { outcome } = await collect(harness.start(fakeRequest(workspace, "hi", { model, env })));
      assert.ok(outcome.kind === "completed");
      assert.equal(outcome.resultText, "messages hello");
      assert.equal(server.requests[0]?.route, "messages");
      assert.equal(server.requests[0]?.headers["x-api-key"], "proxy-key");
    } finally {
      await server.close();
    }
  });
});
