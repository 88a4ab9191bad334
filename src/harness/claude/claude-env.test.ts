import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { claudeEnv } from "./claude-env.ts";

describe("claudeEnv", () => {
  it("adds the runtime's variables to the agent's environment and switches auto-compaction off", () => {
    const env = claudeEnv({
      base: { PATH: "/bin", ANTHROPIC_API_KEY: "k", CLAUDE_CODE_MAX_RETRIES: "10" },
      configDir: "/exec/.hankweave/claude",
      maxRetries: 2,
      runningAsRoot: true,
      autoCompact: false,
    });
    assert.deepEqual(env, {
      PATH: "/bin",
      ANTHROPIC_API_KEY: "k",
      CLAUDE_CONFIG_DIR: "/exec/.hankweave/claude",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      CLAUDE_CODE_MAX_RETRIES: "2",
      CLAUDE_AGENT_SDK_CLIENT_APP: "hankweave",
      IS_SANDBOX: "1",
      DISABLE_AUTO_COMPACT: "1",
    });
  });

  it("with autoCompact removes what would switch compaction off; no IS_SANDBOX when not root", () => {
    const env = claudeEnv({
      base: { DISABLE_AUTO_COMPACT: "1", DISABLE_COMPACT: "1" },
      configDir: "/c",
      maxRetries: 0,
      runningAsRoot: false,
      autoCompact: true,
    });
    assert.deepEqual(env, {
      CLAUDE_CONFIG_DIR: "/c",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      CLAUDE_CODE_MAX_RETRIES: "0",
      CLAUDE_AGENT_SDK_CLIENT_APP: "hankweave",
    });
  });
});
