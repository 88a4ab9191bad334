import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type ResolvedModel, resolveModel } from "../hank/models/index.ts";
import { type FakeProviderServer, startFakeOpenAI } from "../testing/fake-providers/index.ts";
import { createPiAiLoader, createPiSentinelModel, sentinelApiKey } from "./pi-sentinel-model.ts";
import type { SentinelModel, SentinelModelRequest } from "./sentinel-model.ts";

function resolved(id: string): ResolvedModel {
  const model = resolveModel(id);
  assert.ok(model.ok);
  return model.model;
}

function request(fields: Partial<SentinelModelRequest> = {}): SentinelModelRequest {
  return {
    system: "You watch a coding agent.",
    messages: [
      { role: "user", content: "What happened first?" },
      { role: "assistant", content: "It read the task." },
      { role: "user", content: "And now?" },
    ],
    temperature: 0,
    maxOutputTokens: 256,
    maxRetries: 0,
    callNumber: 1,
    signal: new AbortController().signal,
    ...fields,
  };
}

describe("a sentinel model through pi-ai, against the fake OpenAI server", () => {
  let fake: FakeProviderServer;
  let model: SentinelModel;
  before(async () => {
    fake = await startFakeOpenAI([
      { type: "text", text: "It wrote a.ts.", usage: { inputTokens: 1000, outputTokens: 200 } },
      { type: "rate-limit", retryAfterSeconds: 1 },
      {
        type: "http-error",
        status: 401,
        errorType: "invalid_api_key",
        message: "Incorrect API key provided",
      },
    ]);
    const env = {
      HANKWEAVE_PI_OPENAI_BASE_URL: `${fake.baseUrl}/v1`,
      HANKWEAVE_PI_OPENAI_API: "openai-completions",
      HANKWEAVE_SENTINEL_OPENAI_API_KEY: "sk-sentinel",
    };
    const created = createPiSentinelModel(resolved("openai/gpt-4o-mini"), env, createPiAiLoader(), () => 0);
    assert.ok(created.ok, created.ok ? "" : created.message);
    model = created.model;
  });
  after(() => fake.close());

  it("sends the system prompt and the conversation, and prices the reply with the catalog", async () => {
    const reply = await model.call(request());
    assert.ok(reply.ok);
    assert.deepEqual(
      { ...reply, costUsd: 0 },
      { ok: true, text: "It wrote a.ts.", usage: { input: 1000, output: 200 }, costUsd: 0 },
    );
    // gpt-4o-mini: $0.15 per million input tokens, $0.60 per million output tokens.
    assert.ok(Math.abs(reply.costUsd - (1000 * 0.15 + 200 * 0.6) / 1_000_000) < 1e-12);
    const sent = fake.requests[0]?.body as { model: string; messages: { role: string; content: unknown }[] };
    assert.equal(sent.model, "gpt-4o-mini");
    assert.deepEqual(
      sent.messages.map((m) => m.role),
      ["system", "user", "assistant", "user"],
    );
    assert.equal(fake.requests[0]?.headers.authorization, "Bearer sk-sentinel");
  });

  it("classifies provider failures: a rate limit is retriable, a bad key is not", async () => {
    const limited = await model.call(request());
    assert.equal(limited.ok ? undefined : limited.retriable, true);
    const denied = await model.call(request());
    assert.equal(denied.ok ? undefined : denied.retriable, false);
    assert.match(denied.ok ? "" : denied.message, /401|API key/i);
  });

  it("refuses at load a provider it has no key or endpoint for, naming the variables", () => {
    const missing = createPiSentinelModel(
      resolved("anthropic/claude-haiku-4-5"),
      {},
      createPiAiLoader(),
      () => 0,
    );
    assert.equal(missing.ok, false);
    assert.match(
      missing.ok ? "" : missing.message,
      /No API key for sentinel model provider 'anthropic': set .*ANTHROPIC_API_KEY/,
    );
  });

  it("prefers the sentinel's own key variable", () => {
    const env = {
      OPENAI_API_KEY: "agent",
      HANKWEAVE_SENTINEL_OPENAI_API_KEY: "sentinel",
      HANKWEAVE_OPENAI_API_KEY: "x",
    };
    assert.equal(sentinelApiKey("openai", env), "sentinel");
    assert.equal(sentinelApiKey("openai", { HANKWEAVE_OPENAI_API_KEY: "x" }), "x");
  });
});
