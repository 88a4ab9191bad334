import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createModelCatalog } from "./catalog.ts";
import type { CatalogModel } from "./catalog-data.ts";
import type { ModelPricing, ResolvedModel } from "./model-types.ts";
import { resolveModel } from "./resolve-model.ts";

const PRICE: ModelPricing = { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 };

function model(provider: string, id: string, extra: Partial<CatalogModel> = {}): CatalogModel {
  return {
    provider,
    id,
    name: id,
    api: "test-api",
    contextWindow: 100_000,
    maxOutputTokens: 8_000,
    reasoning: false,
    cost: PRICE,
    ...extra,
  };
}

/** A small catalog with real ids, covering every resolution rule. */
const catalog = createModelCatalog({
  header: { source: "test", version: "0", generatedAt: "2026-01-01" },
  models: [
    model("anthropic", "claude-3-5-haiku-20241022"),
    model("anthropic", "claude-3-5-haiku-latest"),
    model("anthropic", "claude-haiku-4-5-20251001"),
    model("anthropic", "claude-haiku-4-5", { contextWindow: 200_000, maxOutputTokens: 64_000 }),
    model("anthropic", "claude-sonnet-4-0"),
    model("anthropic", "claude-sonnet-4-20250514"),
    model("anthropic", "claude-sonnet-4-5"),
    model("anthropic", "claude-sonnet-4-5-20250929"),
    model("anthropic", "claude-sonnet-4-6"),
    model("anthropic", "claude-3-opus-20240229"),
    model("anthropic", "claude-opus-4-1"),
    model("anthropic", "claude-opus-4-7"),
    model("cloudflare-ai-gateway", "claude-haiku-4-5"),
    model("cloudflare-ai-gateway", "claude-sonnet-4"),
    model("opencode", "claude-haiku-4-5"),
    model("opencode", "gpt-5"),
    model("github-copilot", "claude-haiku-4.5"),
    model("github-copilot", "gpt-5"),
    model("azure-openai-responses", "gpt-5", { reasoning: true }),
    model("openai", "gpt-4"),
    model("openai", "gpt-4o"),
    model("openai", "gpt-5", { reasoning: true, contextWindow: 400_000, maxOutputTokens: 128_000 }),
    model("openai", "o3", { reasoning: true }),
    model("google-vertex", "gemini-2.5-pro"),
    model("google", "gemini-2.5-pro"),
    model("openrouter", "openai/gpt-oss-120b"),
    model("openrouter", "openrouter/auto", { cost: null }),
    model("groq", "openai/gpt-oss-120b"),
    model("xai", "grok-4"),
  ],
});

function resolved(requested: string): ResolvedModel {
  const result = resolveModel(requested, catalog);
  if (!result.ok) assert.fail(`expected '${requested}' to resolve: ${result.message}`);
  return result.model;
}

function failure(requested: string): { message: string; suggestions: string[] } {
  const result = resolveModel(requested, catalog);
  if (result.ok)
    assert.fail(`expected '${requested}' to fail, got ${result.model.provider}/${result.model.id}`);
  return { message: result.message, suggestions: result.suggestions };
}

function summary(m: ResolvedModel): string {
  return `${m.provider}/${m.id} ${m.harness} ${m.matchType}`;
}

describe("resolveModel: scripted", () => {
  it("resolves scripted, any case, free and with declared limits", () => {
    assert.deepEqual(resolved("Scripted"), {
      requested: "Scripted",
      id: "scripted",
      provider: "scripted",
      harness: "scripted",
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      matchType: "scripted",
    });
  });

  it("keeps the name of scripted/<name> as the id", () => {
    assert.equal(summary(resolved("scripted/fast")), "scripted/fast scripted scripted");
    assert.equal(resolved("SCRIPTED/Slow").id, "Slow");
  });

  it("rejects scripted/ without a name", () => {
    assert.deepEqual(failure("scripted/"), {
      message: "Model 'scripted/' must be 'scripted' or 'scripted/<name>'",
      suggestions: ["scripted"],
    });
  });
});

describe("resolveModel: aliases", () => {
  it("names the newest undated model of each family, any case", () => {
    assert.equal(summary(resolved("haiku")), "anthropic/claude-haiku-4-5 claude alias");
    assert.equal(summary(resolved("SONNET")), "anthropic/claude-sonnet-4-6 claude alias");
    assert.equal(summary(resolved("Opus")), "anthropic/claude-opus-4-7 claude alias");
  });

  it("accepts the provider-qualified spelling", () => {
    assert.equal(summary(resolved("anthropic/haiku")), "anthropic/claude-haiku-4-5 claude alias");
    assert.equal(summary(resolved("Anthropic/Opus")), "anthropic/claude-opus-4-7 claude alias");
  });

  it("carries the catalog limits and prices", () => {
    const m = resolved("haiku");
    assert.deepEqual(
      [m.requested, m.contextWindow, m.maxOutputTokens, m.pricing],
      ["haiku", 200_000, 64_000, PRICE],
    );
  });
});

describe("resolveModel: provider/model and bare ids", () => {
  it("matches provider/model exactly, any case, with the catalog's spelling", () => {
    assert.equal(
      summary(resolved("anthropic/claude-sonnet-4-5")),
      "anthropic/claude-sonnet-4-5 claude exact",
    );
    assert.equal(summary(resolved("OpenAI/GPT-5")), "openai/gpt-5 pi exact");
    assert.equal(
      summary(resolved("cloudflare-ai-gateway/claude-haiku-4-5")),
      "cloudflare-ai-gateway/claude-haiku-4-5 pi exact",
    );
  });

  it("infers the maker's provider for a bare id served by resellers too", () => {
    assert.equal(
      summary(resolved("claude-haiku-4-5")),
      "anthropic/claude-haiku-4-5 claude inferred-provider",
    );
    assert.equal(
      summary(resolved("CLAUDE-HAIKU-4-5")),
      "anthropic/claude-haiku-4-5 claude inferred-provider",
    );
    assert.equal(summary(resolved("gpt-5")), "openai/gpt-5 pi inferred-provider");
    assert.equal(summary(resolved("gemini-2.5-pro")), "google/gemini-2.5-pro pi inferred-provider");
    assert.equal(summary(resolved("grok-4")), "xai/grok-4 pi inferred-provider");
  });

  it("prefers other providers over aggregators, then orders them by name", () => {
    assert.equal(summary(resolved("openai/gpt-oss-120b")), "groq/openai/gpt-oss-120b pi inferred-provider");
    assert.equal(
      summary(resolved("claude-sonnet-4")),
      "cloudflare-ai-gateway/claude-sonnet-4 pi inferred-provider",
    );
  });

  it("resolves a provider/model whose id itself contains a slash", () => {
    assert.equal(
      summary(resolved("openrouter/openai/gpt-oss-120b")),
      "openrouter/openai/gpt-oss-120b pi exact",
    );
  });

  it("gives null pricing for a model without a fixed price", () => {
    assert.equal(resolved("openrouter/auto").pricing, null);
  });
});

describe("resolveModel: effort suffixes", () => {
  it("runs -high at the base price", () => {
    const m = resolved("gpt-5-high");
    assert.equal(summary(m), "openai/gpt-5-high pi inferred-provider");
    assert.deepEqual(
      [m.baseId, m.reasoningEffort, m.pricing, m.contextWindow],
      ["gpt-5", "high", PRICE, 400_000],
    );
  });

  it("runs -xhigh at twice the price, any case", () => {
    const m = resolved("openai/o3-XHIGH");
    assert.equal(summary(m), "openai/o3-xhigh pi exact");
    assert.deepEqual([m.baseId, m.reasoningEffort], ["o3", "xhigh"]);
    assert.deepEqual(m.pricing, { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 });
  });

  it("applies to other providers of OpenAI models", () => {
    assert.equal(
      summary(resolved("azure-openai-responses/gpt-5-high")),
      "azure-openai-responses/gpt-5-high pi exact",
    );
  });

  it("is refused for non-reasoning and non-OpenAI models", () => {
    assert.equal(failure("gpt-4o-high").message, "Model 'gpt-4o-high' not found in registry");
    assert.equal(
      failure("claude-haiku-4-5-xhigh").message,
      "Model 'claude-haiku-4-5-xhigh' not found in registry",
    );
    assert.equal(
      failure("github-copilot/gpt-5-high").message,
      "Model 'github-copilot/gpt-5-high' not found in registry",
    );
  });
});

describe("resolveModel: pi passthrough", () => {
  it("uses catalog data when the provider serves the model", () => {
    const m = resolved("pi/OpenAI/GPT-5");
    assert.equal(summary(m), "openai/gpt-5 pi passthrough");
    assert.deepEqual([m.contextWindow, m.maxOutputTokens, m.pricing], [400_000, 128_000, PRICE]);
  });

  it("runs Anthropic models on pi when asked to", () => {
    assert.equal(
      summary(resolved("pi/anthropic/claude-haiku-4-5")),
      "anthropic/claude-haiku-4-5 pi passthrough",
    );
  });

  it("accepts effort suffixes and model ids with slashes", () => {
    const m = resolved("pi/openai/gpt-5-xhigh");
    assert.deepEqual(
      [summary(m), m.baseId, m.reasoningEffort],
      ["openai/gpt-5-xhigh pi passthrough", "gpt-5", "xhigh"],
    );
    assert.equal(
      summary(resolved("pi/openrouter/openai/gpt-oss-120b")),
      "openrouter/openai/gpt-oss-120b pi passthrough",
    );
  });

  it("falls back to generic limits and unknown pricing for models outside the catalog", () => {
    assert.deepEqual(resolved("pi/keylesstest/never-invoked"), {
      requested: "pi/keylesstest/never-invoked",
      id: "never-invoked",
      provider: "keylesstest",
      harness: "pi",
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      pricing: null,
      matchType: "passthrough",
    });
  });

  it("requires both a provider and a model", () => {
    const message = (id: string) => `Model '${id}' must name a provider and a model: pi/<provider>/<model>`;
    assert.deepEqual(failure("pi/openai"), { message: message("pi/openai"), suggestions: [] });
    assert.deepEqual(failure("pi/openai/"), { message: message("pi/openai/"), suggestions: [] });
    assert.deepEqual(failure("pi//gpt-5"), { message: message("pi//gpt-5"), suggestions: [] });
  });
});

describe("resolveModel: unknown models", () => {
  it("suggests the family's models for a partial id", () => {
    assert.deepEqual(failure("haiku-4"), {
      message: "Model 'haiku-4' not found in registry",
      suggestions: ["claude-haiku-4-5", "claude-haiku-4.5", "claude-haiku-4-5-20251001"],
    });
  });

  it("suggests the nearest spellings for a typo", () => {
    assert.deepEqual(failure("claude-sonet-4-5"), {
      message: "Model 'claude-sonet-4-5' not found in registry",
      suggestions: ["claude-sonnet-4-5", "claude-sonnet-4-0", "claude-sonnet-4-6"],
    });
    assert.deepEqual(failure("gpt5").suggestions, ["gpt-5", "gpt-4"]);
  });

  it("suggests nothing when nothing is close", () => {
    assert.deepEqual(failure("xyzzy"), { message: "Model 'xyzzy' not found in registry", suggestions: [] });
  });

  it("reports a known provider without the model as not found; equal distances go alphabetically", () => {
    assert.deepEqual(failure("openai/gpt-6"), {
      message: "Model 'openai/gpt-6' not found in registry",
      suggestions: ["openai/gpt-4", "openai/gpt-5", "openai/gpt-4o"],
    });
  });

  it("names an unsupported provider", () => {
    assert.deepEqual(failure("antropic/claude-haiku-4-5"), {
      message:
        "Model 'antropic/claude-haiku-4-5' uses provider 'antropic' which is not currently supported. " +
        "Supported providers: anthropic, pi (any provider in the catalog), scripted",
      suggestions: ["anthropic/claude-haiku-4-5"],
    });
  });
});
