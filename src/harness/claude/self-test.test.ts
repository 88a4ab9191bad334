import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { claudeCredentialSource, claudeSelfTest } from "./self-test.ts";

const sdkOk = async () => ({ ok: true as const, sdk: { query: () => (async function* () {})() } });

describe("claudeSelfTest", () => {
  it("passes when the SDK loads and the environment carries credentials", async () => {
    assert.deepEqual(await claudeSelfTest({ ANTHROPIC_API_KEY: "k" }, { loadSdk: sdkOk }), {
      ok: true,
      credentials: "ANTHROPIC_API_KEY",
    });
  });

  it("fails with the install hint when the SDK is missing", async () => {
    const result = await claudeSelfTest(
      { ANTHROPIC_API_KEY: "k" },
      { loadSdk: async () => ({ ok: false, message: "not installed" }) },
    );
    assert.deepEqual(result, {
      ok: false,
      message: "not installed",
      hint: "Or run with -m scripted for a dry run.",
    });
  });

  it("fails without credentials, saying how to provide them", async () => {
    const result = await claudeSelfTest({ PATH: "/bin", ANTHROPIC_API_KEY: "" }, { loadSdk: sdkOk });
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.message, "No credentials for Claude models were found.");
    assert.match(!result.ok ? result.hint : "", /HANKWEAVE_CLAUDE_CONFIG_DIR/);
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
