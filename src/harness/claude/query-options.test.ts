import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SessionRequest } from "../harness.ts";
import { buildQueryOptions, type ClaudeHooks } from "./query-options.ts";

const hooks: ClaudeHooks = { PreToolUse: async () => ({}), PostToolBatch: async () => ({}) };

function request(overrides: Partial<SessionRequest> = {}): SessionRequest {
  return {
    codonId: "a",
    prompt: "p",
    model: { requested: "sonnet", id: "claude-sonnet-4-5", provider: "anthropic" },
    cwd: "/exec/agentRoot",
    env: {},
    autoCompact: false,
    attempt: 1,
    extension: 0,
    signal: new AbortController().signal,
    ...overrides,
  };
}

describe("buildQueryOptions", () => {
  it("appends the hank's system prompt to Claude Code's, bypasses permissions, reads no settings", () => {
    const abortController = new AbortController();
    const onStderr = () => undefined;
    const options = buildQueryOptions({
      request: request({ systemPrompt: "Be brief.", resumeSessionId: "s-1" }),
      env: { A: "1" },
      hooks,
      abortController,
      onStderr,
      executablePath: undefined,
    });
    assert.deepEqual(options, {
      cwd: "/exec/agentRoot",
      model: "claude-sonnet-4-5",
      systemPrompt: { type: "preset", preset: "claude_code", append: "Be brief." },
      permissionMode: "bypassPermissions",
      allowDangerouslySkipPermissions: true,
      settingSources: [],
      env: { A: "1" },
      resume: "s-1",
      abortController,
      stderr: onStderr,
      includePartialMessages: true,
      hooks: {
        PreToolUse: [{ hooks: [hooks.PreToolUse] }],
        PostToolBatch: [{ hooks: [hooks.PostToolBatch] }],
      },
    });
  });

  it("keeps Claude Code's prompt alone when there is no system prompt, and passes an executable", () => {
    const options = buildQueryOptions({
      request: request({ systemPrompt: "  " }),
      env: {},
      hooks,
      abortController: new AbortController(),
      onStderr: () => undefined,
      executablePath: "/opt/claude",
    });
    assert.deepEqual(options.systemPrompt, { type: "preset", preset: "claude_code" });
    assert.equal(options.pathToClaudeCodeExecutable, "/opt/claude");
    assert.equal("resume" in options, false);
    assert.equal("tools" in options || "disallowedTools" in options, false, "Claude Code's own tool set");
  });

  it("gives the model only the allowed tools (`tools`) and removes the denied ones (`disallowedTools`)", () => {
    const build = (tools: SessionRequest["tools"]) =>
      buildQueryOptions({
        request: request({ ...(tools !== undefined && { tools }) }),
        env: {},
        hooks,
        abortController: new AbortController(),
        onStderr: () => undefined,
        executablePath: undefined,
      });
    const both = build({ allow: ["Read", "Grep"], deny: ["Bash"] });
    assert.deepEqual([both.tools, both.disallowedTools], [["Read", "Grep"], ["Bash"]]);
    assert.equal("allowedTools" in both, false, "allowedTools restricts nothing under bypassed permissions");
    assert.deepEqual(build({ allow: [] }).tools, []);
    assert.equal("tools" in build({ deny: ["Bash"] }), false);
  });
});
