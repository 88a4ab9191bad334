import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createClaudeHarness } from "./claude-harness.ts";
import { claudeRequest, runToEnd } from "./claude-test-support.ts";
import { CLAUDE_NOT_INSTALLED, checkClaudeAvailable, importClaudeSdk } from "./load-sdk.ts";

describe("loading the Claude Agent SDK", () => {
  it("checkClaudeAvailable finds the package and its platform binary without importing them", () => {
    const seen: string[] = [];
    const resolve = (specifier: string, from: string): string => {
      seen.push(specifier);
      if (specifier === "@anthropic-ai/claude-agent-sdk") return "/app/node_modules/sdk/sdk.mjs";
      if (from === "/app/node_modules/sdk/sdk.mjs" && specifier.endsWith("-linux-x64-musl/claude"))
        return "/bin/claude";
      throw new Error(`Cannot find module '${specifier}'`);
    };
    assert.deepEqual(checkClaudeAvailable({ resolve, platform: "linux", arch: "x64" }), {
      available: true,
      path: "/app/node_modules/sdk/sdk.mjs",
      binary: "/bin/claude",
    });
    assert.deepEqual(seen, [
      "@anthropic-ai/claude-agent-sdk",
      "@anthropic-ai/claude-agent-sdk-linux-x64/claude",
      "@anthropic-ai/claude-agent-sdk-linux-x64-musl/claude",
    ]);
    assert.equal(checkClaudeAvailable().available, true);
  });

  it("checkClaudeAvailable says what is missing and how to install it", () => {
    const nothing = (specifier: string): string => {
      throw new Error(`Cannot find module '${specifier}'`);
    };
    assert.deepEqual(checkClaudeAvailable({ resolve: nothing }), {
      available: false,
      message: "The Claude Agent SDK (@anthropic-ai/claude-agent-sdk) is not installed.",
      hint: "Install it with: npm install @anthropic-ai/claude-agent-sdk@0.3",
    });
    const sdkOnly = (specifier: string): string => {
      if (specifier === "@anthropic-ai/claude-agent-sdk") return "/sdk.mjs";
      throw new Error("missing");
    };
    assert.deepEqual(checkClaudeAvailable({ resolve: sdkOnly, platform: "darwin", arch: "arm64" }), {
      available: false,
      message:
        "The Claude Agent SDK is installed, but not its Claude Code binary (@anthropic-ai/claude-agent-sdk-darwin-arm64/claude).",
      hint: "Reinstall without --omit=optional: npm install @anthropic-ai/claude-agent-sdk@0.3",
    });
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
