import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { envPassthrough, isSecretName, maskSecret } from "./env-report.ts";
import { brief, codon, hankOf, only, run } from "./test-kit.ts";

describe("secret masking", () => {
  it("recognizes secret-looking names, except public ones", () => {
    for (const name of [
      "API_KEY",
      "GITHUB_TOKEN",
      "DB_PASSWORD",
      "PASSPHRASE",
      "AWS_SECRET",
      "GCP_CREDENTIALS",
      "BASIC_AUTH",
      "PRIVATE_PEM",
    ]) {
      assert.equal(isSecretName(name), true, name);
    }
    for (const name of ["STRIPE_PUBLISHABLE_KEY", "PUBLIC_KEY", "REGION", "LOG_LEVEL"])
      assert.equal(isSecretName(name), false, name);
  });

  it("hides a secret entirely, never a part of it", () => {
    assert.equal(maskSecret("API_KEY", "sk-abcdef123456"), "****");
    assert.equal(maskSecret("API_KEY", "short"), "****");
    assert.equal(maskSecret("REGION", "eu-west-1"), "eu-west-1");
  });
});

describe("environment pass-through", () => {
  it("lists HANKWEAVE_ variables as the agent sees them, masked and sorted", () => {
    const env = {
      HANKWEAVE_FOO: "bar",
      HANKWEAVE_API_TOKEN: "tok-1234567890",
      HANKWEAVE_RUNTIME_PORT: "1",
      HANKWEAVE_SENTINEL_X: "2",
      HANKWEAVE_ANTHROPIC_BASE_URL: "unset",
      HANKWEAVE_: "empty name",
      PATH: "/bin",
    };
    assert.deepEqual(envPassthrough(env), [
      { name: "ANTHROPIC_BASE_URL", shown: "unset" },
      { name: "API_TOKEN", shown: "****" },
      { name: "FOO", shown: "bar" },
    ]);
    assert.deepEqual(run(hankOf([codon("a")]), { env }).envPassthrough, envPassthrough(env));
  });

  it("never echoes a secret env value in a type error", () => {
    const report = run(hankOf([codon("a", { env: { DB_PASSWORD: 123456789 } })]));
    assert.equal(
      only(report, "invalid-type").message,
      '"DB_PASSWORD" must be a string, not a number (value hidden).',
    );
  });

  it("warns about secrets written into a codon's env, masked", () => {
    const report = run(hankOf([codon("a", { env: { OPENAI_API_KEY: "sk-live-0123456789", MODE: "fast" } })]));
    assert.deepEqual(brief(only(report, "env-secret-in-hank")), {
      severity: "warning",
      code: "env-secret-in-hank",
      path: ["hank", 0, "env", "OPENAI_API_KEY"],
      message:
        "env OPENAI_API_KEY looks like a secret written into hank.json (value hidden); values there can reach logs and checkpoints.",
    });
    assert.equal(
      only(report, "env-secret-in-hank").hint,
      "Remove it from the hank and set HANKWEAVE_OPENAI_API_KEY in the environment; the agent receives it as OPENAI_API_KEY.",
    );
  });
});
