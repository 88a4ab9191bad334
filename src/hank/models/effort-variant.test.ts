import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CatalogModel } from "./catalog-data.ts";
import { acceptsEffortSuffix, effortPricing, splitEffortSuffix } from "./effort-variant.ts";

function model(provider: string, reasoning: boolean): CatalogModel {
  const cost = { input: 1, output: 8, cacheRead: 0.25, cacheWrite: 0 };
  return { provider, id: "m", name: "m", api: "a", contextWindow: 1, maxOutputTokens: 1, reasoning, cost };
}

describe("effort variants", () => {
  it("splits -high and -xhigh suffixes, any case", () => {
    assert.deepEqual(splitEffortSuffix("gpt-5-high"), { baseId: "gpt-5", effort: "high" });
    assert.deepEqual(splitEffortSuffix("gpt-5.1-codex-XHIGH"), { baseId: "gpt-5.1-codex", effort: "xhigh" });
    assert.equal(splitEffortSuffix("gpt-5"), undefined);
    assert.equal(splitEffortSuffix("-high"), undefined);
    assert.equal(splitEffortSuffix("gpt-5-higher"), undefined);
  });

  it("applies to reasoning models of OpenAI's providers only", () => {
    const cases = [
      model("openai", true),
      model("openai-codex", true),
      model("azure-openai-responses", true),
      model("openai", false),
      model("openrouter", true),
    ];
    assert.deepEqual(cases.map(acceptsEffortSuffix), [true, true, true, false, false]);
  });

  it("keeps the price for high and doubles it for xhigh", () => {
    const base = { input: 1, output: 8, cacheRead: 0.25, cacheWrite: 0 };
    assert.deepEqual(effortPricing(base, "high"), base);
    assert.deepEqual(effortPricing(base, "xhigh"), { input: 2, output: 16, cacheRead: 0.5, cacheWrite: 0 });
    assert.equal(effortPricing(null, "xhigh"), null);
  });
});
