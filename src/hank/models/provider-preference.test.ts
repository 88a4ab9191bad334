import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareProviders } from "./provider-preference.ts";

describe("compareProviders", () => {
  it("orders makers, then other providers by name, then aggregators", () => {
    const names = [
      "openrouter",
      "groq",
      "openai",
      "opencode",
      "amazon-bedrock",
      "anthropic",
      "google",
      "github-copilot",
    ];
    assert.deepEqual(names.sort(compareProviders), [
      "anthropic",
      "openai",
      "google",
      "amazon-bedrock",
      "groq",
      "openrouter",
      "github-copilot",
      "opencode",
    ]);
  });

  it("is zero only for the same name", () => {
    assert.deepEqual(
      [compareProviders("groq", "groq"), Math.sign(compareProviders("cerebras", "groq"))],
      [0, -1],
    );
  });
});
