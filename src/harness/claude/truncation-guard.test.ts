import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TruncationGuard } from "./truncation-guard.ts";

const signal = (): AbortSignal => new AbortController().signal;
const start = (id: string) => ({ type: "message_start", message: { id } });
const toolBlock = (id: string, name = "Write") => ({
  type: "content_block_start",
  index: 0,
  content_block: { type: "tool_use", id, name, input: {} },
});
const delta = (stop: string) => ({
  type: "message_delta",
  delta: { stop_reason: stop },
  usage: { output_tokens: 5 },
});

const DENY_TRUNCATED = {
  continue: false,
  stopReason:
    "hankweave stopped the session: the model's output reached max_tokens inside a tool call, whose arguments may be incomplete",
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "deny",
    permissionDecisionReason:
      "The tool call was cut off at the output token limit (max_tokens); it was not executed.",
  },
};

describe("TruncationGuard", () => {
  it("lets a call run once its response ended normally, even when the hook came first", async () => {
    const guard = new TruncationGuard();
    guard.onStreamEvent("main", start("m1"));
    guard.onStreamEvent("main", toolBlock("t1", "Bash"));
    const answer = guard.hooks.PreToolUse({ tool_use_id: "t1" }, "t1", { signal: signal() });
    guard.onStreamEvent("main", delta("tool_use"));
    assert.deepEqual(await answer, {});
    assert.equal(guard.truncation, undefined);
  });

  it("denies a call of a response that stopped at max_tokens and stops the session", async () => {
    const guard = new TruncationGuard();
    guard.onStreamEvent("main", start("m1"));
    guard.onStreamEvent("main", toolBlock("t1"));
    guard.onStreamEvent("main", delta("max_tokens"));
    assert.deepEqual(await guard.hooks.PreToolUse({}, "t1", { signal: signal() }), DENY_TRUNCATED);
    assert.deepEqual(guard.truncation, { toolName: "Write" });
  });

  it("waits for a call it has not seen yet (the hook can overtake the stream events)", async () => {
    const guard = new TruncationGuard();
    const answer = guard.hooks.PreToolUse({}, "t1", { signal: signal() });
    guard.onAssistantMessage({
      id: "m1",
      content: [{ type: "tool_use", id: "t1", name: "Edit", input: {} }],
    });
    guard.onStreamEvent("main", start("m1"));
    guard.onStreamEvent("main", delta("max_tokens"));
    assert.deepEqual(await answer, DENY_TRUNCATED);
    assert.deepEqual(guard.truncation, { toolName: "Edit" });
  });

  it("denies, without stopping, a call whose response ended without a stop reason", async () => {
    const guard = new TruncationGuard();
    guard.onStreamEvent("main", start("m1"));
    guard.onStreamEvent("main", toolBlock("t1"));
    guard.onStreamEvent("main", start("m2"));
    assert.deepEqual(await guard.hooks.PreToolUse({}, "t1", { signal: signal() }), {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason:
          "The response ended before this tool call was complete; it was not executed.",
      },
    });
    assert.equal(guard.truncation, undefined);
  });

  it("lets subagent calls through at once: their streams are not visible", async () => {
    const guard = new TruncationGuard();
    assert.deepEqual(await guard.hooks.PreToolUse({ agent_id: "a1" }, "t9", { signal: signal() }), {});
  });

  it("stops after a batch holding a call cut mid-JSON (Claude Code rejected it itself)", async () => {
    const guard = new TruncationGuard();
    guard.onStreamEvent("main", start("m1"));
    guard.onStreamEvent("main", toolBlock("t1"));
    guard.onStreamEvent("main", delta("max_tokens"));
    const input = { tool_calls: [{ tool_use_id: "t1", tool_name: "Write" }] };
    assert.deepEqual(await guard.hooks.PostToolBatch(input, undefined, { signal: signal() }), {
      continue: false,
      stopReason: DENY_TRUNCATED.stopReason,
    });
    assert.deepEqual(guard.truncation, { toolName: "Write" });
    guard.onStreamEvent("main", start("m2"));
    guard.onStreamEvent("main", toolBlock("t2", "Bash"));
    guard.onStreamEvent("main", delta("tool_use"));
    const next = { tool_calls: [{ tool_use_id: "t2", tool_name: "Bash" }] };
    assert.deepEqual(await guard.hooks.PostToolBatch(next, undefined, { signal: signal() }), {});
  });

  it("releases waiting hooks when the session closes or the hook is cancelled", async () => {
    const guard = new TruncationGuard();
    const cancel = new AbortController();
    const cancelled = guard.hooks.PreToolUse({}, "t1", { signal: cancel.signal });
    cancel.abort();
    assert.equal((await cancelled).hookSpecificOutput?.permissionDecision, "deny");
    const waiting = guard.hooks.PreToolUse({}, "t2", { signal: signal() });
    guard.close();
    assert.equal((await waiting).hookSpecificOutput?.permissionDecision, "deny");
  });
});
