import type { ScriptUsage } from "./script-step.ts";
import type { ScriptedTurn, TurnStop } from "./scripted-turn.ts";

/**
 * Applies one usage increment. The session's context grows by input+output; when that would exceed the
 * model's context window the request is treated as rejected (the increment is not reported) and the
 * turn stops exactly as `@exhaust-context` does.
 */
export function usageStep(turn: ScriptedTurn, usage: ScriptUsage): TurnStop | undefined {
  const window = turn.request.model.contextWindow;
  const next = turn.session.contextTokens + usage.input + usage.output;
  if (window !== undefined && next > window) return contextExceeded(turn, next);
  turn.session.contextTokens = next;
  turn.emit({
    type: "usage",
    usage: {
      inputTokens: usage.input,
      outputTokens: usage.output,
      cacheCreationTokens: usage.cacheWrite,
      cacheReadTokens: usage.cacheRead,
      costUsd: usage.cost,
    },
  });
  const totals = turn.totals;
  totals.inputTokens += usage.input;
  totals.outputTokens += usage.output;
  totals.cacheCreationTokens += usage.cacheWrite;
  totals.cacheReadTokens += usage.cacheRead;
  totals.costUsd += usage.cost;
  return undefined;
}

/** `@exhaust-context`: the conversation is full now. */
export function exhaustContextStep(turn: ScriptedTurn): TurnStop {
  return contextExceeded(turn, turn.request.model.contextWindow ?? turn.session.contextTokens);
}

/**
 * The context boundary. Without autoCompact it is the provider's "prompt is too long" rejection (an
 * errored stream, context unchanged); with autoCompact the agent compacts (a `compaction` event, the
 * context starts again from empty) and the session ends at that boundary.
 */
function contextExceeded(turn: ScriptedTurn, preTokens: number): TurnStop {
  if (!turn.request.autoCompact) return { kind: "context-exceeded", via: "overflow", stream: "error" };
  turn.emit({ type: "compaction", preTokens });
  turn.session.contextTokens = 0;
  return { kind: "context-exceeded", via: "compaction", stream: "completed" };
}

/**
 * The increment a prompt without `@usage` reports, as if it ended with a `@usage` line:
 * input ≈ prompt characters / 4, output ≈ produced characters / 4, cost 0.
 */
export function defaultUsage(turn: ScriptedTurn): ScriptUsage {
  return {
    input: Math.ceil(turn.request.prompt.length / 4),
    output: Math.ceil(turn.emittedChars / 4),
    cacheRead: 0,
    cacheWrite: 0,
    cost: 0,
  };
}
