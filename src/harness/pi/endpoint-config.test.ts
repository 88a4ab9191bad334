import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { endpointEnvPrefix, endpointFor } from "./endpoint-config.ts";

describe("endpointEnvPrefix", () => {
  it("upper-cases the provider and turns other characters into underscores", () => {
    assert.equal(endpointEnvPrefix("local"), "HANKWEAVE_PI_LOCAL_");
    assert.equal(endpointEnvPrefix("lm-studio.v2"), "HANKWEAVE_PI_LM_STUDIO_V2_");
  });
});

describe("endpointFor", () => {
  it("is undefined when neither options nor environment configure the provider", () => {
    assert.deepEqual(endpointFor("local", undefined, {}), { ok: true, endpoint: undefined });
  });

  it("reads base URL, API and key from the environment", () => {
    const env = {
      HANKWEAVE_PI_LOCAL_BASE_URL: "http://127.0.0.1:8080",
      HANKWEAVE_PI_LOCAL_API: "anthropic-messages",
      HANKWEAVE_PI_LOCAL_API_KEY: "k",
    };
    assert.deepEqual(endpointFor("local", undefined, env), {
      ok: true,
      endpoint: {
        baseUrl: "http://127.0.0.1:8080",
        api: "anthropic-messages",
        apiKey: "k",
        models: [],
        source: "HANKWEAVE_PI_LOCAL_BASE_URL",
      },
    });
  });

  it("treats empty API and key variables as unset", () => {
    const env = {
      HANKWEAVE_PI_LOCAL_BASE_URL: "http://h/v1",
      HANKWEAVE_PI_LOCAL_API: "",
      HANKWEAVE_PI_LOCAL_API_KEY: "",
    };
    const lookup = endpointFor("local", undefined, env);
    assert.ok(lookup.ok);
    assert.equal(lookup.endpoint?.api, undefined);
    assert.equal(lookup.endpoint?.apiKey, undefined);
  });

  it("refuses an API it cannot speak", () => {
    const env = { HANKWEAVE_PI_LOCAL_BASE_URL: "http://h/v1", HANKWEAVE_PI_LOCAL_API: "grpc" };
    assert.deepEqual(endpointFor("local", undefined, env), {
      ok: false,
      message: "HANKWEAVE_PI_LOCAL_API: api 'grpc' is not one of openai-completions, anthropic-messages",
    });
  });

  it("prefers harness options over the environment, the key from the named variable", () => {
    const providers = {
      local: { baseUrl: "http://opt/v1", apiKeyEnv: "LOCAL_KEY", models: [{ id: "m", maxTokens: 100 }] },
    };
    const env = { HANKWEAVE_PI_LOCAL_BASE_URL: "http://env/v1", LOCAL_KEY: "secret" };
    assert.deepEqual(endpointFor("local", providers, env), {
      ok: true,
      endpoint: {
        baseUrl: "http://opt/v1",
        api: undefined,
        apiKey: "secret",
        models: [{ id: "m", maxTokens: 100 }],
        source: "pi provider 'local' (harness options)",
      },
    });
  });

  it("uses the literal key of the options before the named variable", () => {
    const providers = { local: { baseUrl: "http://opt/v1", apiKey: "literal", apiKeyEnv: "LOCAL_KEY" } };
    const lookup = endpointFor("local", providers, { LOCAL_KEY: "secret" });
    assert.ok(lookup.ok);
    assert.equal(lookup.endpoint?.apiKey, "literal");
  });
});
