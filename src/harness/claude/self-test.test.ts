import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { claudeCredentialSource, selfTestClaude } from "./self-test.ts";

const installed = () => ({ available: true as const, path: "/sdk/sdk.mjs", binary: "/sdk-linux-x64/claude" });

describe("selfTestClaude", () => {
  it("passes when the SDK is installed and the environment carries credentials", () => {
    assert.deepEqual(selfTestClaude({ ANTHROPIC_API_KEY: "k" }, { checkAvailable: installed }), {
      ok: true,
      credentials: "ANTHROPIC_API_KEY",
    });
  });

  it("fails with the install hint when the SDK is missing", () => {
    const missing = () => ({
      available: false as const,
      message: "not installed",
      hint: "Install it with: npm i x",
    });
    assert.deepEqual(selfTestClaude({ ANTHROPIC_API_KEY: "k" }, { checkAvailable: missing }), {
      ok: false,
      message: "not installed",
      hint: "Install it with: npm i x. Or run with -m scripted for a dry run.",
    });
  });

  it("fails without credentials, saying how to provide them", () => {
    const result = selfTestClaude({ PATH: "/bin", ANTHROPIC_API_KEY: "" }, { checkAvailable: installed });
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.message, "No credentials for Claude models were found.");
    assert.match(!result.ok ? result.hint : "", /HANKWEAVE_CLAUDE_CONFIG_DIR/);
  });

  it("checks the real installation by default", () => {
    assert.deepEqual(selfTestClaude({ ANTHROPIC_API_KEY: "k" }), {
      ok: true,
      credentials: "ANTHROPIC_API_KEY",
    });
  });
});

describe("claudeCredentialSource", () => {
  it("names the source: a key or token variable, a cloud provider, or a chosen config directory", () => {
    const none = () => false;
    assert.equal(claudeCredentialSource({ CLAUDE_CODE_OAUTH_TOKEN: "t" }, none), "CLAUDE_CODE_OAUTH_TOKEN");
    assert.equal(claudeCredentialSource({ CLAUDE_CODE_USE_BEDROCK: "1" }, none), "CLAUDE_CODE_USE_BEDROCK");
    assert.equal(claudeCredentialSource({ CLAUDE_CODE_USE_VERTEX: "0" }, none), undefined);
    const login = (path: string) => path === "/home/me/.claude/.credentials.json";
    assert.equal(
      claudeCredentialSource({ CLAUDE_CONFIG_DIR: "/home/me/.claude" }, login),
      "the login in /home/me/.claude",
    );
    assert.equal(
      claudeCredentialSource({ CLAUDE_CONFIG_DIR: "/other" }, login),
      "the configuration in /other",
    );
  });
});
