import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Api, Model } from "@mariozechner/pi-ai";
import type { ResolvedModel } from "../../hank/models/index.ts";
import type { PiEndpoint } from "./endpoint-config.ts";
import { buildPiModel, type ModelFacts, modelFacts, type PiModelList } from "./pi-model.ts";

const GPT: Model<Api> = {
  id: "gpt-5",
  name: "GPT-5",
  api: "openai-responses",
  provider: "openai",
  baseUrl: "https://api.openai.com/v1",
  reasoning: true,
  input: ["text", "image"],
  cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  contextWindow: 400_000,
  maxTokens: 128_000,
  compat: { supportsStore: true },
};

const LIST: PiModelList = { models: (provider) => (provider === "openai" ? [GPT] : []) };

const facts = (extra: Partial<ModelFacts> = {}): ModelFacts => ({
  provider: "openai",
  callId: "gpt-5",
  contextWindow: 400_000,
  maxOutputTokens: 128_000,
  pricing: null,
  ...extra,
});

const endpoint = (extra: Partial<PiEndpoint> = {}): PiEndpoint => ({
  baseUrl: "http://127.0.0.1:8080/v1",
  api: undefined,
  apiKey: undefined,
  models: [],
  source: "test",
  ...extra,
});

function built(result: ReturnType<typeof buildPiModel>) {
  assert.ok(result.ok, result.ok ? "" : result.message);
  return result;
}

describe("modelFacts", () => {
  const session = { requested: "gpt-5-xhigh", id: "gpt-5-xhigh", provider: "openai", contextWindow: 400_000 };
  const resolved: ResolvedModel = {
    requested: "gpt-5-xhigh",
    id: "gpt-5-xhigh",
    provider: "openai",
    harness: "pi",
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    pricing: { input: 2.5, output: 20, cacheRead: 0.25, cacheWrite: 0 },
    matchType: "exact",
    baseId: "gpt-5",
    reasoningEffort: "xhigh",
  };

  it("calls an effort variant by its base id, with its effort and the variant's prices", () => {
    assert.deepEqual(modelFacts(session, resolved), {
      provider: "openai",
      callId: "gpt-5",
      contextWindow: 400_000,
      maxOutputTokens: undefined,
      pricing: resolved.pricing,
      reasoningEffort: "xhigh",
    });
  });

  it("ignores a resolution of another model", () => {
    const other = { ...resolved, id: "gpt-4o" };
    assert.equal(modelFacts(session, other).callId, "gpt-5-xhigh");
    assert.equal(modelFacts(session, other).pricing, null);
  });
});

describe("buildPiModel", () => {
  it("uses pi's own entry for a model it lists, priced by the catalog", () => {
    const pricing = { input: 2.5, output: 20, cacheRead: 0.25, cacheWrite: 0 };
    const result = built(buildPiModel(facts({ pricing }), undefined, LIST, "P_"));
    assert.deepEqual(result.model, { ...GPT, cost: pricing });
    assert.equal(result.priced, true);
  });

  it("keeps pi's prices when the catalog has none for a listed model", () => {
    const result = built(buildPiModel(facts(), undefined, LIST, "P_"));
    assert.deepEqual(result.model.cost, GPT.cost);
    assert.equal(result.priced, true);
  });

  it("builds a generic model for an unlisted id of a known provider, unpriced", () => {
    const f = facts({ callId: "gpt-9", contextWindow: 200_000, maxOutputTokens: 64_000 });
    const result = built(buildPiModel(f, undefined, LIST, "P_"));
    assert.deepEqual(result.model, {
      id: "gpt-9",
      name: "gpt-9",
      api: "openai-responses",
      provider: "openai",
      baseUrl: "https://api.openai.com/v1",
      reasoning: false,
      input: ["text"],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      contextWindow: 200_000,
      maxTokens: 64_000,
    });
    assert.equal(result.priced, false);
  });

  it("refuses a provider pi does not know when no endpoint is configured", () => {
    const result = buildPiModel(
      facts({ provider: "local", callId: "qwen3" }),
      undefined,
      LIST,
      "HANKWEAVE_PI_LOCAL_",
    );
    assert.equal(result.ok, false);
  });

  it("serves an unknown provider from its endpoint, with the configured limits and prices", () => {
    const cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    const models = [{ id: "qwen3", contextWindow: 32_768, maxTokens: 8192, reasoning: true, cost }];
    const f = facts({ provider: "local", callId: "qwen3" });
    const result = built(buildPiModel(f, endpoint({ models }), LIST, "P_"));
    assert.equal(result.model.api, "openai-completions");
    assert.equal(result.model.baseUrl, "http://127.0.0.1:8080/v1");
    assert.equal(result.model.contextWindow, 32_768);
    assert.equal(result.model.maxTokens, 8192);
    assert.equal(result.model.reasoning, true);
    assert.equal(result.priced, true);
  });

  it("redirects a listed model to an endpoint, dropping compat flags of an API it no longer speaks", () => {
    const same = built(buildPiModel(facts(), endpoint(), LIST, "P_"));
    assert.equal(same.model.api, "openai-responses");
    assert.deepEqual(same.model.compat, { supportsStore: true });
    const other = built(buildPiModel(facts(), endpoint({ api: "openai-completions" }), LIST, "P_"));
    assert.equal(other.model.api, "openai-completions");
    assert.equal(other.model.baseUrl, "http://127.0.0.1:8080/v1");
    assert.equal("compat" in other.model, false);
  });
});
