import type { DataOf, JournaledEvent } from "../events/events.ts";

/**
 * What the span tree reads of a journaled event, and nothing more: the events that open or close a span,
 * with only their structural fields (ids, names, counts, costs, end reasons). This projection is where
 * the no-secrets contract of the spans holds: prompts, messages, tool inputs and results, and error
 * messages never leave it. It is also what crosses to the tracing thread, so it stays small and plain
 * (structured-clonable).
 */
export type TraceEvent =
  | Traced<"state.transition", RunTransition>
  | Traced<"codon.started", Pick<DataOf<"codon.started">, "codonId" | "codonName" | "attempt">>
  | Traced<"codon.completed", CodonEnd>
  | Traced<"token.usage", Usage>
  | Traced<"assistant.action", ToolCall>
  | Traced<"tool.result", Pick<DataOf<"tool.result">, "toolUseId" | "executionTimeMs" | "isError">>
  | Traced<"loop.iteration.completed", DataOf<"loop.iteration.completed">>;

export type TraceEventType = TraceEvent["type"];
export type TraceEventOf<T extends TraceEventType> = Extract<TraceEvent, { type: T }>;

interface Traced<T extends string, D> {
  readonly type: T;
  readonly seq: number;
  /** The record's id: the first record's names the execution's trace. */
  readonly id: string;
  readonly timestamp: string;
  readonly data: D;
}

/** A run's start or end (the other transitions open no span). */
export interface RunTransition {
  readonly transitionType: RunTransitionType;
  readonly runId?: string;
  /** A `RunFailed` that is a delivered cancel. */
  readonly aborted: boolean;
}

type RunTransitionType = "RunStarted" | "RunCompleted" | "RunFailed" | "RunCrashed";

type CodonEnd = Pick<
  DataOf<"codon.completed">,
  "codonId" | "success" | "cost" | "duration" | "endReasons"
> & {
  /** The failure's type, never its message. */
  readonly failureType?: string;
  /** The currency of the budget the attempt exceeded, when it did. */
  readonly budgetCurrency?: string;
};

type Usage = Pick<
  DataOf<"token.usage">,
  | "codonId"
  | "modelId"
  | "inputTokens"
  | "outputTokens"
  | "cacheReadTokens"
  | "cacheCreationTokens"
  | "totalCost"
>;

/** A `tool_use` action (the others open no span); its input stays behind. */
interface ToolCall {
  readonly codonId: string;
  readonly toolUseId: string;
  readonly toolName?: string;
}

const RUN_TRANSITIONS: readonly string[] = [
  "RunStarted",
  "RunCompleted",
  "RunFailed",
  "RunCrashed",
] satisfies RunTransitionType[];

function isRunTransition(type: string): type is RunTransitionType {
  return RUN_TRANSITIONS.includes(type);
}

/**
 * The event as the span tree reads it, or undefined for an event that opens or closes no span. It runs
 * on the run's thread for every journaled event, so an event that opens no span costs a type check, and
 * the others are built field by field, without spreads.
 */
export function traceEventOf(event: JournaledEvent): TraceEvent | undefined {
  switch (event.type) {
    case "state.transition":
      return runTransitionOf(event);
    case "codon.started": {
      const { codonId, codonName, attempt } = event.data;
      const data: Writable<TraceEventOf<"codon.started">["data"]> = { codonId, codonName };
      if (attempt !== undefined) data.attempt = attempt;
      return traced(event, data);
    }
    case "codon.completed":
      return traced(event, codonEndOf(event.data));
    case "token.usage":
      return traced(event, usageOf(event.data));
    case "assistant.action":
      return toolCallOf(event);
    case "tool.result": {
      const { toolUseId, executionTimeMs, isError } = event.data;
      return traced(event, { toolUseId, executionTimeMs, isError });
    }
    case "loop.iteration.completed":
      return traced(event, event.data);
    default:
      return undefined;
  }
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The projection of `event`: its type and envelope (seq, id, timestamp) with the fields `data` kept.
 * The cast only restates what the callers hold: `data` is the projection of an event of `type`.
 */
function traced<T extends TraceEventType>(
  event: { readonly type: T; readonly seq: number; readonly id: string; readonly timestamp: string },
  data: TraceEventOf<T>["data"],
): TraceEventOf<T> {
  return {
    type: event.type,
    seq: event.seq,
    id: event.id,
    timestamp: event.timestamp,
    data,
  } as TraceEventOf<T>;
}

function runTransitionOf(
  event: Extract<JournaledEvent, { type: "state.transition" }>,
): TraceEvent | undefined {
  const { transitionType, runId } = event.data;
  if (!isRunTransition(transitionType)) return undefined;
  const aborted = transitionType === "RunFailed" && event.data.transition.data.reason === "aborted";
  const data: Writable<RunTransition> = { transitionType, aborted };
  if (runId !== undefined) data.runId = runId;
  return traced(event, data);
}

/** A `tool_use` action (the others open no span), without its input. */
function toolCallOf(event: Extract<JournaledEvent, { type: "assistant.action" }>): TraceEvent | undefined {
  const { action, codonId, toolUseId, toolName } = event.data;
  if (action !== "tool_use" || toolUseId === undefined) return undefined;
  const data: Writable<ToolCall> = { codonId, toolUseId };
  if (toolName !== undefined) data.toolName = toolName;
  return traced(event, data);
}

function codonEndOf(data: DataOf<"codon.completed">): CodonEnd {
  const { codonId, success, cost, duration, endReasons, failureReason, budgetExceeded } = data;
  const end: Writable<CodonEnd> = { codonId, success, cost, duration };
  if (endReasons !== undefined) end.endReasons = endReasons;
  if (failureReason !== undefined) end.failureType = failureReason.type;
  if (budgetExceeded !== undefined) end.budgetCurrency = budgetExceeded.currency;
  return end;
}

function usageOf(data: DataOf<"token.usage">): Usage {
  const { codonId, modelId, inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens, totalCost } =
    data;
  const usage: Writable<Usage> = {
    codonId,
    inputTokens,
    outputTokens,
    cacheReadTokens,
    cacheCreationTokens,
    totalCost,
  };
  if (modelId !== undefined) usage.modelId = modelId;
  return usage;
}
