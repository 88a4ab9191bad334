import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createClaudeHarness } from "./claude-harness.ts";
import { claudeRequest, runToEnd } from "./claude-test-support.ts";
import { CLAUDE_NOT_INSTALLED, checkClaudeAvailable, importClaudeSdk } from "./load-sdk.ts";

describe("loading the Claude Agent SDK", () => {
  it("checkClaudeAvailable resolves the package without importing it", () => {
    assert.deepEqual(
      checkClaudeAvailable(() => "/app/node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs"),
      { available: true, path: "/app/node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs" },
    );
    const missing = checkClaudeAvailable(() => {
      throw new Error("Cannot find module '@anthropic-ai/claude-agent-sdk'");
    });
    assert.deepEqual(missing, {
      available: false,
      message: "The Claude Agent SDK (@anthropic-ai/claude-agent-sdk) is not installed.",
      hint: "Install it with: npm install @anthropic-ai/claude-agent-sdk@0.3",
    });
    assert.equal(checkClaudeAvailable().available, true);
  });

  it("imports the installed SDK", async () => {
    const loaded = await importClaudeSdk();
    assert.equal(loaded.ok && typeof loaded.sdk.query, "function");
  });

  it("a session without the SDK fails permanently with the install hint, and emits nothing", async () => {
    const harness = createClaudeHarness({
      loadSdk: async () => ({ ok: false, message: CLAUDE_NOT_INSTALLED }),
    });
    const { events, outcome } = await runToEnd(harness, claudeRequest("/nonexistent", {}, "Work."));
    assert.deepEqual(events, []);
    assert.deepEqual(outcome, {
      kind: "failed",
      reason: {
        type: "unknown",
        retriable: false,
        message:
          "The Claude Agent SDK (@anthropic-ai/claude-agent-sdk) is not installed; Claude models need it. Install it with: npm install @anthropic-ai/claude-agent-sdk@0.3",
      },
      sessionEstablished: false,
      layers: { stream: "error", toolBatch: "completed", turn: "error" },
      totals: { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, costUsd: 0 },
    });
  });

  it("a session cancelled before it starts is aborted without loading anything", async () => {
    const controller = new AbortController();
    controller.abort("cancelled");
    let loads = 0;
    const harness = createClaudeHarness({
      loadSdk: async () => {
        loads += 1;
        return { ok: false, message: "unused" };
      },
    });
    const { outcome } = await runToEnd(
      harness,
      claudeRequest("/nonexistent", {}, "Work.", { signal: controller.signal }),
    );
    assert.equal(loads, 0);
    assert.equal(outcome.kind === "aborted" && outcome.reason, "cancelled");
    assert.deepEqual(harness.capabilities, { resume: true, reportsCost: true, compaction: true });
    assert.equal(harness.name, "claude");
  });
});
