import type { FakeReply, FakeRequestView, FakeToolCall, FakeUsage } from "../fake-providers/index.ts";
import { resolveToolName } from "../fake-providers/index.ts";
import type { ConformanceFault, SessionPlan, ToolStep } from "./session-plan.ts";

/** The provider replies of each fault (src/testing/fake-providers/README.md). */
const FAULT_REPLIES: Readonly<Record<ConformanceFault, FakeReply>> = {
  "rate-limit": { type: "rate-limit" },
  "server-error": { type: "server-error" },
  overloaded: { type: "overloaded" },
  "connection-reset": { type: "connection-reset", afterEvents: 2 },
  auth: { type: "http-error", status: 401, errorType: "authentication_error", message: "invalid x-api-key" },
};

/** Characters left out of a cut write's JSON: the cut lands inside the content string. */
const CUT_CHARS = 6;

/**
 * How a fake provider acts out one request of a session that follows `plan`. The position in the
 * session is the request's `step` (tool results since the prompt), so a retried request (a client's
 * own retry, Claude Code's non-streaming fallback) gets the same answer again.
 */
export function planReply(plan: SessionPlan, request: FakeRequestView): FakeReply {
  switch (plan.kind) {
    case "work": {
      const step = plan.steps[request.step];
      if (step === undefined || request.tools.length === 0) return { type: "text", text: plan.text };
      return { type: "tool", calls: [toolCall(request, step)] };
    }
    case "fault":
      return FAULT_REPLIES[plan.fault];
    case "overflow":
      return { type: "prompt-too-long" };
    case "max-tokens": {
      if (request.step > 0) return { type: "text", text: "Done." };
      const call = toolCall(request, { kind: "write", path: plan.path, content: plan.content });
      const keepChars = JSON.stringify(call.input).length - CUT_CHARS;
      return { type: "max-tokens", call, keepChars };
    }
    case "stall":
      return { type: "stall" };
    case "over-budget": {
      if (request.step > 0) return { type: "stall" };
      const usage: FakeUsage = { outputTokens: plan.outputTokens };
      return { type: "tool", calls: [toolCall(request, plan.step)], usage };
    }
  }
}

/** The tool call of a step, named and keyed as the requesting agent's tools expect. */
function toolCall(request: FakeRequestView, step: ToolStep): FakeToolCall {
  if (step.kind === "run")
    return { tool: resolveToolName(request, "bash"), input: { command: step.command } };
  const tool = resolveToolName(request, "write");
  return { tool, input: { [pathKey(request, tool)]: step.path, content: step.content } };
}

/** pi's write tool takes `path`, Claude Code's takes `file_path`: follow the tool's schema. */
function pathKey(request: FakeRequestView, tool: string): string {
  const properties = request.tools.find((t) => t.name === tool)?.properties ?? [];
  return properties.includes("path") && !properties.includes("file_path") ? "path" : "file_path";
}
