import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { harnessForProvider } from "./harness-for-provider.ts";
import { modelCostUsd } from "./model-cost.ts";

describe("modelCostUsd", () => {
  const pricing = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

  it("prices each kind of token per million", () => {
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 200_000,
      cacheCreationTokens: 400_000,
      cacheReadTokens: 2_000_000,
    };
    assert.equal(modelCostUsd(pricing, usage), 3 + 3 + 1.5 + 0.6);
  });

  it("treats missing cache counts as zero", () => {
    assert.equal(modelCostUsd(pricing, { inputTokens: 2_000, outputTokens: 1_000 }), 0.021);
  });

  it("is null without pricing", () => {
    assert.equal(modelCostUsd(null, { inputTokens: 1, outputTokens: 1 }), null);
  });
});

describe("harnessForProvider", () => {
  it("runs anthropic on claude, scripted on scripted, the rest on pi", () => {
    assert.deepEqual(["anthropic", "scripted", "openai", "openrouter"].map(harnessForProvider), [
      "claude",
      "scripted",
      "pi",
      "pi",
    ]);
  });
});
