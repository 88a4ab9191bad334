import type { AgentSession } from "@mariozechner/pi-coding-agent";

type PiAgent = AgentSession["agent"];

/** The tool result the model sees for a call that was cut off and therefore not run. */
export function truncatedCallMessage(toolName: string): string {
  return (
    `Tool call ${toolName} was not executed: the response was cut off at the model's output token limit ` +
    "(max tokens), so its arguments are incomplete."
  );
}

/**
 * pi 0.73 runs the tool calls of a response that stopped at max tokens (`stopReason: "length"`): its
 * streaming JSON parser completes the cut-off arguments, so a half-written `write` lands on disk as a
 * shorter file. Truncation must win before any argument is trusted (spec: loop engineering, "truncated
 * arguments are not executable").
 *
 * The guard wraps the agent's `beforeToolCall` hook, which pi calls after parsing and before executing
 * each call: a call from a truncated response is blocked (the model gets an error result instead) and
 * the agent is aborted, so no further request is made and the session ends at the truncation. Calls
 * from complete responses pass on to pi's own hook unchanged. `existed` records, before a write or edit
 * runs, whether its target existed (for created/modified file events).
 */
export function installTruncationGuard(
  agent: PiAgent,
  onBeforeRun: (toolCallId: string, args: unknown) => void,
): void {
  const inner = agent.beforeToolCall;
  agent.beforeToolCall = async (context, signal) => {
    const { assistantMessage, toolCall } = context;
    if (assistantMessage.stopReason === "length") {
      agent.abort();
      return { block: true, reason: truncatedCallMessage(toolCall.name) };
    }
    onBeforeRun(toolCall.id, context.args);
    return inner === undefined ? undefined : inner(context, signal);
  };
}
