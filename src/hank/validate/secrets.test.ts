import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { envPassthrough } from "./env-report.ts";
import { isSecretName, redactSecrets, secretShape } from "./secrets.ts";
import { codon, hankOf, run, withCode } from "./test-kit.ts";

const SHAPED: ReadonlyArray<readonly [string, string]> = [
  ["sk-ant-api03-AbCdEfGhIjKlMnOp", "an Anthropic API key"],
  ["ghp_0123456789abcdefghijABCDEFGHIJ", "a GitHub token"],
  ["postgres://app:hunter2@db.internal:5432/main", "a URL with a password"],
  ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl", "a JSON Web Token"],
  ["AKIAABCDEFGHIJKLMNOP", "an AWS access key"],
];

describe("secrets by name and by shape", () => {
  it("reads names as words: a count of tokens is not a secret, a token is", () => {
    for (const name of [
      "GITHUB_TOKEN",
      "githubToken",
      "OPENAI_APIKEY",
      "DB_PASS",
      "SSH_PRIVATE_KEY",
      "AWS_SECRET",
    ])
      assert.equal(isSecretName(name), true, name);
    for (const name of [
      "CLAUDE_CODE_MAX_OUTPUT_TOKENS",
      "MAX_TOKENS",
      "AUTHOR",
      "PASSPORT",
      "KEYBOARD_LAYOUT",
      "PUBLIC_KEY",
    ])
      assert.equal(isSecretName(name), false, name);
  });

  it("recognizes credential-shaped values, and not ordinary ones", () => {
    for (const [value, kind] of SHAPED) assert.equal(secretShape(value), kind, value);
    for (const value of [
      "https://example.com/a?b=c",
      "eu-west-1",
      "sk-short",
      "ghp_short",
      "user@example.com",
    ])
      assert.equal(secretShape(value), undefined, value);
  });

  it("never shows a shaped value passed through HANKWEAVE_, whatever its name", () => {
    const env = Object.fromEntries(SHAPED.map(([value], i) => [`HANKWEAVE_SETTING_${i}`, value]));
    const shown = envPassthrough({ ...env, HANKWEAVE_CLAUDE_CODE_MAX_OUTPUT_TOKENS: "32000" });
    assert.deepEqual(
      shown.map((e) => e.shown),
      ["32000", "****", "****", "****", "****", "****"],
    );
  });

  it("warns about a shaped value in a codon's env under an innocent name, and never echoes it", () => {
    const [value] = SHAPED[2] ?? [""];
    const report = run(
      hankOf([codon("a", { env: { DATABASE: value, CLAUDE_CODE_MAX_OUTPUT_TOKENS: "32000" } })]),
    );
    const issues = withCode(report, "env-secret-in-hank");
    assert.deepEqual(
      issues.map((i) => i.path),
      [["hank", 0, "env", "DATABASE"]],
    );
    assert.match(issues[0]?.message ?? "", /looks like a URL with a password/);
    assert.equal(JSON.stringify(report.issues).includes("hunter2"), false);
  });

  it("never echoes a shaped value in a schema message", () => {
    const token = SHAPED[1]?.[0] ?? "";
    const report = run(hankOf([codon("a", { model: token, continuationMode: token })]));
    const text = JSON.stringify(report.issues);
    assert.equal(text.includes(token.slice(4, 20)), false, text);
    assert.match(text, /looks like a GitHub token \(value hidden\)/);
  });
});

describe("redactSecrets", () => {
  it("replaces every credential in a text, keeping a URL's user and host", () => {
    assert.equal(
      redactSecrets("use ghp_0123456789abcdefghijABCDEFGHIJ with postgres://app:hunter2@db/main"),
      "use **** with postgres://app:****@db/main",
    );
    assert.equal(
      redactSecrets("nothing secret here: https://example.com/x"),
      "nothing secret here: https://example.com/x",
    );
  });
});
