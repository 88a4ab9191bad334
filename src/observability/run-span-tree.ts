import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import type { OtelApi } from "./open-tracer.ts";
import { ATTR, genAiSystemOf } from "./span-names.ts";
import type { TraceEvent, TraceEventOf } from "./trace-event.ts";
import type { TraceRoot } from "./trace-root.ts";

export interface RunSpanTreeOptions {
  readonly api: OtelApi;
  readonly tracer: Tracer;
  /** The execution directory, when the run has one (a transient `loop()` has none). */
  readonly executionPath?: string;
  /** The parent of the run spans, when the run is part of larger work: it wins over the execution's trace. */
  readonly parent?: Context;
  /** The execution's trace, when its journal already had a first record (a resumed execution). */
  readonly root: TraceRoot | undefined;
  /** Derives the trace from the first record of a new execution's journal. */
  readonly rootOf: (firstRecordId: string) => TraceRoot;
}

interface OpenAttempt {
  readonly span: Span;
  readonly context: Context;
  /** Where the next model turn starts: the attempt's start, then each turn's end. */
  turnStart: Date;
  /** The model turn in progress: opened by its first tool call or its usage, ended by its usage. */
  turn: { readonly span: Span; readonly context: Context } | undefined;
  readonly tools: Map<string, Span>;
}

/**
 * Turns a run's journaled events (as `traceEventOf` projects them) into spans, as they are journaled: run → codon → attempt → model turn
 * → tool call, and loop iterations under the run. Times are the events' own timestamps, so the tree
 * shows the journal's timeline exactly. Status: ERROR for a failed codon, attempt or run; unset
 * otherwise, with `hankweave.end_reason` telling `aborted` (a delivered cancel) from `interrupted`
 * (crash recovery) and from a completion.
 */
export class RunSpanTree {
  private root: TraceRoot | undefined;
  private run: { span: Span; context: Context } | undefined;
  private codon: { id: string; span: Span; context: Context; lastEnd: Date } | undefined;
  private attempt: OpenAttempt | undefined;

  constructor(private readonly options: RunSpanTreeOptions) {
    this.root = options.root;
  }

  /** The listener: one journaled event, projected. Never throws into the run. */
  readonly onEvent = (event: TraceEvent): void => {
    try {
      if (this.root === undefined && event.seq === 1) this.root = this.options.rootOf(event.id);
      this.dispatch(event);
    } catch {
      // A tracing fault must not change the run; the span tree is best effort by contract.
    }
  };

  /** Ends whatever is still open (a run cut short before its end was journaled). */
  endAll(at: Date): void {
    this.endCodon(at);
    this.run?.span.end(at);
    this.run = undefined;
  }

  private dispatch(event: TraceEvent): void {
    switch (event.type) {
      case "state.transition":
        this.onTransition(event);
        return;
      case "codon.started":
        this.onCodonStarted(event);
        return;
      case "codon.completed":
        this.onCodonCompleted(event);
        return;
      case "token.usage":
        this.onUsage(event);
        return;
      case "assistant.action":
        this.onAction(event);
        return;
      case "tool.result":
        this.onToolResult(event);
        return;
      case "loop.iteration.completed":
        this.onIteration(event);
        return;
    }
  }

  private onTransition(event: TraceEventOf<"state.transition">): void {
    const { transitionType, runId } = event.data;
    const at = new Date(event.timestamp);
    if (transitionType === "RunStarted") {
      this.endAll(at);
      const span = this.start("hankweave.run", this.rootContext(), at, {
        ...(this.options.executionPath !== undefined && { [ATTR.executionPath]: this.options.executionPath }),
        ...(runId !== undefined && { [ATTR.runId]: runId }),
      });
      this.run = { span, context: this.options.api.trace.setSpan(this.rootContext(), span) };
      return;
    }
    const outcome = runOutcomeOf(event);
    if (outcome === undefined || this.run === undefined) return;
    this.run.span.setAttribute(ATTR.runOutcome, outcome);
    this.run.span.setAttribute(ATTR.endReason, outcome);
    if (outcome === "failed") this.setError(this.run.span, "run failed");
    this.endCodon(at, outcome);
    this.run.span.end(at);
    this.run = undefined;
  }

  private onCodonStarted(event: TraceEventOf<"codon.started">): void {
    const { codonId, codonName, attempt } = event.data;
    const at = new Date(event.timestamp);
    if (this.codon?.id !== codonId) {
      this.endCodon(at);
      const parent = this.run?.context ?? this.rootContext();
      const span = this.start(`codon ${codonId}`, parent, at, {
        [ATTR.codonId]: codonId,
        [ATTR.codonName]: codonName,
      });
      const context = this.options.api.trace.setSpan(parent, span);
      this.codon = { id: codonId, span, context, lastEnd: at };
    }
    this.endAttempt(at, "interrupted");
    const codon = this.codon;
    if (codon === undefined) return;
    const number = attempt ?? 1;
    const span = this.start(`attempt ${number}`, codon.context, at, {
      [ATTR.codonId]: codonId,
      [ATTR.attempt]: number,
    });
    const context = this.options.api.trace.setSpan(codon.context, span);
    this.attempt = { span, context, turnStart: at, turn: undefined, tools: new Map() };
  }

  private onCodonCompleted(event: TraceEventOf<"codon.completed">): void {
    const at = new Date(event.timestamp);
    const { data } = event;
    const reason = data.endReasons?.codon ?? (data.success ? "completed" : "error");
    const attributes: Attributes = {
      [ATTR.costUsd]: data.cost,
      [ATTR.durationMs]: data.duration,
      [ATTR.endReason]: reason,
      ...(data.endReasons !== undefined && {
        [ATTR.endReasonStream]: data.endReasons.stream,
        [ATTR.endReasonToolBatch]: data.endReasons.toolBatch,
        [ATTR.endReasonTurn]: data.endReasons.turn,
      }),
      ...(data.failureType !== undefined && { [ATTR.failureType]: data.failureType }),
      [ATTR.budgetExceeded]: data.budgetCurrency !== undefined,
      ...(data.budgetCurrency !== undefined && { [ATTR.budgetCurrency]: data.budgetCurrency }),
    };
    const failed = !data.success && reason !== "aborted" && reason !== "interrupted";
    const attempt = this.attempt;
    if (attempt !== undefined) {
      attempt.span.setAttributes(attributes);
      if (failed) this.setError(attempt.span, data.failureType ?? reason);
      this.endAttempt(at, reason);
    }
    const codon = this.codon;
    if (codon === undefined || codon.id !== data.codonId) return;
    codon.span.setAttributes(attributes);
    codon.lastEnd = at;
    if (failed) this.setError(codon.span, data.failureType ?? reason);
    else codon.span.setStatus({ code: this.options.api.SpanStatusCode.UNSET });
  }

  /**
   * A model response's usage ends its turn. Harnesses report usage once the response is complete, after
   * the tool calls it asked for, so those calls are children of the turn.
   */
  private onUsage(event: TraceEventOf<"token.usage">): void {
    const attempt = this.attempt;
    if (attempt === undefined) return;
    const at = new Date(event.timestamp);
    const { data } = event;
    const turn = this.openTurn(attempt, data.codonId);
    const model = data.modelId;
    if (model !== undefined) {
      turn.span.updateName(`chat ${model}`);
      turn.span.setAttributes({ [ATTR.genAiRequestModel]: model, [ATTR.genAiSystem]: genAiSystemOf(model) });
    }
    turn.span.setAttributes({
      [ATTR.genAiInputTokens]: data.inputTokens,
      [ATTR.genAiOutputTokens]: data.outputTokens,
      [ATTR.cacheReadTokens]: data.cacheReadTokens,
      [ATTR.cacheCreationTokens]: data.cacheCreationTokens,
      [ATTR.costUsd]: data.totalCost,
    });
    turn.span.end(at);
    attempt.turn = undefined;
    attempt.turnStart = at;
  }

  private onAction(event: TraceEventOf<"assistant.action">): void {
    const { data } = event;
    const attempt = this.attempt;
    if (attempt === undefined) return;
    const name = data.toolName ?? "tool";
    const turn = this.openTurn(attempt, data.codonId);
    const span = this.start(`execute_tool ${name}`, turn.context, new Date(event.timestamp), {
      [ATTR.genAiOperation]: "execute_tool",
      [ATTR.genAiToolName]: name,
      [ATTR.genAiToolCallId]: data.toolUseId,
      [ATTR.codonId]: data.codonId,
    });
    attempt.tools.set(data.toolUseId, span);
  }

  private openTurn(attempt: OpenAttempt, codonId: string): { span: Span; context: Context } {
    if (attempt.turn !== undefined) return attempt.turn;
    const span = this.start("chat", attempt.context, attempt.turnStart, {
      [ATTR.genAiOperation]: "chat",
      [ATTR.codonId]: codonId,
    });
    attempt.turn = { span, context: this.options.api.trace.setSpan(attempt.context, span) };
    return attempt.turn;
  }

  private onToolResult(event: TraceEventOf<"tool.result">): void {
    const { data } = event;
    const span = this.attempt?.tools.get(data.toolUseId);
    if (span === undefined) return;
    span.setAttribute(ATTR.durationMs, data.executionTimeMs);
    if (data.isError) this.setError(span, "tool error");
    span.end(new Date(event.timestamp));
    this.attempt?.tools.delete(data.toolUseId);
  }

  /** An iteration is reported once it ended: its span is written afterwards, with its measured start. */
  private onIteration(event: TraceEventOf<"loop.iteration.completed">): void {
    const { data } = event;
    const end = new Date(event.timestamp);
    const start = new Date(end.getTime() - data.durationMs);
    const span = this.start(
      `loop ${data.loopId} iteration ${data.iteration}`,
      this.run?.context ?? this.rootContext(),
      start,
      {
        [ATTR.loopId]: data.loopId,
        [ATTR.loopIteration]: data.iteration,
        [ATTR.loopFinal]: data.isFinal,
        [ATTR.costUsd]: data.costUsd,
        [ATTR.tokens]: data.tokensUsed,
        ...(data.terminationReason !== undefined && { [ATTR.loopEndCause]: data.terminationReason }),
        ...(data.endCause !== undefined && { [ATTR.loopEndCause]: data.endCause }),
      },
    );
    span.end(end);
  }

  private endAttempt(at: Date, reason: string): void {
    const attempt = this.attempt;
    if (attempt === undefined) return;
    for (const open of [...attempt.tools.values(), ...(attempt.turn ? [attempt.turn.span] : [])]) {
      open.setAttribute(ATTR.endReason, reason);
      open.end(at);
    }
    attempt.span.setAttribute(ATTR.endReason, reason);
    attempt.span.end(at);
    this.attempt = undefined;
  }

  private endCodon(at: Date, reason = "interrupted"): void {
    this.endAttempt(at, reason);
    const codon = this.codon;
    if (codon === undefined) return;
    codon.span.end(codon.lastEnd > at ? codon.lastEnd : at);
    this.codon = undefined;
  }

  private start(name: string, parent: Context, startTime: Date, attributes: Attributes): Span {
    return this.options.tracer.startSpan(name, { startTime, attributes }, parent);
  }

  private setError(span: Span, message: string): void {
    span.setStatus({ code: this.options.api.SpanStatusCode.ERROR, message });
  }

  /**
   * The given parent; else the execution's virtual root as a remote parent, so every run of the
   * execution shares its trace.
   */
  private rootContext(): Context {
    const { api, parent } = this.options;
    if (parent !== undefined) return parent;
    if (this.root === undefined) return api.ROOT_CONTEXT;
    return api.trace.setSpanContext(api.ROOT_CONTEXT, {
      traceId: this.root.traceId,
      spanId: this.root.rootSpanId,
      traceFlags: api.TraceFlags.SAMPLED,
      isRemote: true,
    });
  }
}

/** How a run ended, from its end transition (`RunFailed` with `reason: aborted` is a delivered cancel). */
function runOutcomeOf(event: TraceEventOf<"state.transition">): string | undefined {
  switch (event.data.transitionType) {
    case "RunCompleted":
      return "completed";
    case "RunCrashed":
      return "interrupted";
    case "RunFailed":
      return event.data.aborted ? "aborted" : "failed";
    default:
      return undefined;
  }
}
