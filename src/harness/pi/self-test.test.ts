import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkPiAvailable } from "./pi-sdk.ts";
import { selfTestPi } from "./self-test.ts";

const model = (provider: string, id = "m") => ({ requested: `${provider}/${id}`, id, provider });

describe("checkPiAvailable", () => {
  it("finds the installed SDK by resolution and reads its version", () => {
    const available = checkPiAvailable();
    assert.ok(available.ok);
    assert.match(available.version, /^0\.73\.\d+$/);
    assert.equal(available.supported, true);
  });
});

describe("selfTestPi", () => {
  it("passes with the provider's key in the environment and names its variable", () => {
    const result = selfTestPi(model("groq"), { GROQ_API_KEY: "k" });
    assert.ok(result.ok);
    assert.equal(result.credentials, "GROQ_API_KEY");
    assert.equal(result.warning, undefined);
  });

  it("passes with ambient credentials", () => {
    const result = selfTestPi(model("amazon-bedrock"), { AWS_PROFILE: "dev" });
    assert.ok(result.ok);
    assert.equal(result.credentials, "ambient credentials");
  });

  it("passes with an endpoint from the environment, which needs no key", () => {
    const result = selfTestPi(model("local"), { HANKWEAVE_PI_LOCAL_BASE_URL: "http://127.0.0.1:8080/v1" });
    assert.ok(result.ok);
    assert.equal(result.credentials, "HANKWEAVE_PI_LOCAL_BASE_URL");
  });

  it("passes with an endpoint from the options", () => {
    const result = selfTestPi(model("local"), {}, { providers: { local: { baseUrl: "http://h/v1" } } });
    assert.ok(result.ok);
    assert.equal(result.credentials, "pi provider 'local' (harness options)");
  });

  it("fails without credentials, naming what to set", () => {
    assert.deepEqual(selfTestPi(model("openai", "gpt-5"), {}), {
      ok: false,
      message: "Model openai/gpt-5: no credentials for pi provider 'openai': set OPENAI_API_KEY",
    });
  });

  it("fails for an unknown provider without endpoint, naming the endpoint variable", () => {
    assert.deepEqual(selfTestPi(model("local"), {}), {
      ok: false,
      message:
        "Model local/m: pi has no API key variable for provider 'local'; set HANKWEAVE_PI_LOCAL_BASE_URL to point it at an endpoint",
    });
  });
});
