import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { apiKeyEnvNames, apiKeyFromEnv, credentialHint, hasAmbientCredentials } from "./provider-env.ts";

describe("provider credentials from the agent environment", () => {
  it("takes the first variable of the provider that is set and not empty", () => {
    assert.equal(apiKeyFromEnv("openai", { OPENAI_API_KEY: "sk-1" }), "sk-1");
    assert.equal(apiKeyFromEnv("anthropic", { ANTHROPIC_OAUTH_TOKEN: "", ANTHROPIC_API_KEY: "k" }), "k");
    assert.equal(apiKeyFromEnv("openai", {}), undefined);
    assert.equal(apiKeyFromEnv("local", { OPENAI_API_KEY: "sk-1" }), undefined);
  });

  it("recognizes complete sets of ambient cloud credentials only", () => {
    assert.equal(hasAmbientCredentials("amazon-bedrock", { AWS_PROFILE: "dev" }), true);
    assert.equal(hasAmbientCredentials("amazon-bedrock", { AWS_ACCESS_KEY_ID: "a" }), false);
    assert.equal(
      hasAmbientCredentials("amazon-bedrock", { AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s" }),
      true,
    );
    assert.equal(hasAmbientCredentials("openai", { AWS_PROFILE: "dev" }), false);
  });

  it("names what to set", () => {
    assert.equal(credentialHint("groq"), "GROQ_API_KEY");
    assert.equal(
      credentialHint("google-vertex"),
      "GOOGLE_CLOUD_API_KEY or GOOGLE_CLOUD_PROJECT + GOOGLE_CLOUD_LOCATION",
    );
    assert.equal(credentialHint("local"), "");
  });
});

describe("agreement with pi-ai's own table", () => {
  it("every pi provider's key variables are the ones pi-ai reads", async () => {
    const ai = await import("@mariozechner/pi-ai");
    const providers = ai.getProviders();
    const names = [...new Set(providers.flatMap((p) => apiKeyEnvNames(p) ?? []))];
    const saved = names.map((name) => [name, process.env[name]] as const);
    // pi-ai reads process.env only: set every known variable for the comparison, then restore.
    for (const name of names) process.env[name] = "x";
    try {
      for (const provider of providers) {
        assert.deepEqual(ai.findEnvKeys(provider) ?? [], apiKeyEnvNames(provider) ?? [], provider);
      }
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    const withoutKeys = providers.filter((p) => apiKeyEnvNames(p) === undefined);
    assert.deepEqual(withoutKeys, ["amazon-bedrock", "openai-codex"]);
  });
});
