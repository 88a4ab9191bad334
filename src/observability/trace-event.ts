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

/** The event as the span tree reads it, or undefined for an event that opens or closes no span. */
export function traceEventOf(event: JournaledEvent): TraceEvent | undefined {
  const envelope = { seq: event.seq, id: event.id, timestamp: event.timestamp };
  switch (event.type) {
    case "state.transition":
      return runTransitionOf(event.data, envelope);
    case "codon.started": {
      const { codonId, codonName, attempt } = event.data;
      const data = { codonId, codonName, ...(attempt !== undefined && { attempt }) };
      return { type: event.type, ...envelope, data };
    }
    case "codon.completed":
      return { type: event.type, ...envelope, data: codonEndOf(event.data) };
    case "token.usage":
      return { type: event.type, ...envelope, data: usageOf(event.data) };
    case "assistant.action": {
      const { action, codonId, toolUseId, toolName } = event.data;
      if (action !== "tool_use" || toolUseId === undefined) return undefined;
      const data = { codonId, toolUseId, ...(toolName !== undefined && { toolName }) };
      return { type: event.type, ...envelope, data };
    }
    case "tool.result": {
      const { toolUseId, executionTimeMs, isError } = event.data;
      return { type: event.type, ...envelope, data: { toolUseId, executionTimeMs, isError } };
    }
    case "loop.iteration.completed":
      return { type: event.type, ...envelope, data: event.data };
    default:
      return undefined;
  }
}

type Envelope = Pick<TraceEvent, "seq" | "id" | "timestamp">;

function runTransitionOf(data: DataOf<"state.transition">, envelope: Envelope): TraceEvent | undefined {
  const { transitionType, runId } = data;
  if (!isRunTransition(transitionType)) return undefined;
  const aborted = transitionType === "RunFailed" && data.transition.data.reason === "aborted";
  return {
    type: "state.transition",
    ...envelope,
    data: { transitionType, ...(runId !== undefined && { runId }), aborted },
  };
}

function codonEndOf(data: DataOf<"codon.completed">): CodonEnd {
  const { codonId, success, cost, duration, endReasons, failureReason, budgetExceeded } = data;
  return {
    codonId,
    success,
    cost,
    duration,
    ...(endReasons !== undefined && { endReasons }),
    ...(failureReason !== undefined && { failureType: failureReason.type }),
    ...(budgetExceeded !== undefined && { budgetCurrency: budgetExceeded.currency }),
  };
}

function usageOf(data: DataOf<"token.usage">): Usage {
  const { codonId, modelId, inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens, totalCost } =
    data;
  return {
    codonId,
    ...(modelId !== undefined && { modelId }),
    inputTokens,
    outputTokens,
    cacheReadTokens,
    cacheCreationTokens,
    totalCost,
  };
}
