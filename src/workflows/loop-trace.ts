import type { Attributes, Span } from "@opentelemetry/api";
import type { JournaledEvent } from "../events/index.ts";
import {
  ATTR,
  genAiSystemOf,
  openTracer,
  type TracerSession,
  type TracingOptions,
} from "../observability/index.ts";
import { systemClock } from "../util/clock.ts";
import type { CheckedLoopOptions, LoopResult } from "./loop-options.ts";
import type { Result, StepError, Usage } from "./workflow-types.ts";

/** A traced `loop()`: its span, the step times seen so far, and how its run is traced under it. */
export interface LoopTrace {
  /** What the loop's run is traced with: the loop's provider, the loop's span as the run's parent. */
  readonly tracing: TracingOptions;
  /** Notes each step's first start and last end from the run's events (an inline listener). */
  readonly listener: (event: JournaledEvent) => void;
  /**
   * Writes one span per step of the result under the loop's span, ends it, and flushes. `undefined`:
   * the loop threw before it ran (an argument error). Never rejects.
   */
  end(result: LoopResult | undefined): Promise<void>;
}

interface StepTimes {
  start: number;
  end: number | undefined;
}

/** Step errors that say how the work was stopped rather than that it failed: not span errors. */
const NOT_ERRORS: ReadonlySet<StepError["kind"]> = new Set(["aborted", "interrupted"]);

/**
 * Starts a `loop()`'s span (`loop <step names>`, a child of the caller's active span), or returns
 * undefined when tracing is off, loading nothing. Under it, at the end, one `step <agent>` span per
 * step execution and, as it runs, the run's own tree (`hankweave.run` → codon → ...).
 */
export async function startLoopTrace(options: CheckedLoopOptions): Promise<LoopTrace | undefined> {
  const session = await openTracer({
    env: options.env,
    options: options.tracing,
    version: "library",
    scope: "hankweave",
  });
  if (session === undefined) return undefined;
  const { api, tracer } = session;
  const clock = options.clock ?? systemClock();
  const parent = options.tracing?.parent ?? api.context.active();
  const span = tracer.startSpan(
    `loop ${options.steps.map((step) => step.name).join(", ")}`,
    { startTime: clock.now(), attributes: loopAttributes(options) },
    parent,
  );
  const context = api.trace.setSpan(parent, span);
  const times = new Map<string, StepTimes>();
  return {
    tracing: { tracerProvider: session.provider, parent: context },
    listener: (event) => noteStepTime(times, event),
    end: async (result) => {
      const end = clock.now();
      for (const step of result?.steps ?? []) {
        const at = times.get(step.codonId);
        const started = tracer.startSpan(
          `step ${step.agent}`,
          { startTime: at?.start ?? end, attributes: stepAttributes(options, step) },
          context,
        );
        if (step.error !== undefined && !NOT_ERRORS.has(step.error.kind))
          setError(session, started, step.error);
        started.end(at?.end ?? end);
      }
      endLoopSpan(session, span, result);
      span.end(end);
      await session.close();
    },
  };
}

function noteStepTime(times: Map<string, StepTimes>, event: JournaledEvent): void {
  if (event.type === "codon.started") {
    const known = times.get(event.data.codonId);
    if (known === undefined)
      times.set(event.data.codonId, { start: Date.parse(event.timestamp), end: undefined });
  } else if (event.type === "codon.completed") {
    const known = times.get(event.data.codonId);
    if (known !== undefined) known.end = Date.parse(event.timestamp);
  }
}

function loopAttributes(options: CheckedLoopOptions): Attributes {
  return {
    [ATTR.loopSteps]: options.steps.length,
    [ATTR.loopMaxIterations]: options.maxIterations,
    [ATTR.loopDurable]: options.durable !== undefined,
  };
}

function endLoopSpan(session: TracerSession, span: Span, result: LoopResult | undefined): void {
  if (result === undefined) {
    span.setAttribute(ATTR.loopEndCause, "refused");
    span.setStatus({ code: session.api.SpanStatusCode.ERROR, message: "refused" });
    return;
  }
  span.setAttributes({
    [ATTR.loopIterations]: result.iterations,
    [ATTR.loopEndCause]: result.endCause,
    [ATTR.loopConverged]: result.converged,
    ...usageAttributes(result.usage),
  });
  if (result.error !== undefined && !NOT_ERRORS.has(result.error.kind)) setError(session, span, result.error);
}

function stepAttributes(options: CheckedLoopOptions, step: Result): Attributes {
  const model = options.model ?? options.steps[step.step]?.model;
  return {
    [ATTR.genAiOperation]: "invoke_agent",
    [ATTR.genAiAgentName]: step.agent,
    ...(model !== undefined && { [ATTR.genAiRequestModel]: model, [ATTR.genAiSystem]: genAiSystemOf(model) }),
    [ATTR.loopStep]: step.step,
    [ATTR.loopIteration]: step.iteration,
    [ATTR.codonId]: step.codonId,
    [ATTR.endReason]: step.error?.kind ?? "completed",
    ...usageAttributes(step.usage),
  };
}

function usageAttributes(usage: Usage): Attributes {
  return {
    [ATTR.genAiInputTokens]: usage.inputTokens,
    [ATTR.genAiOutputTokens]: usage.outputTokens,
    [ATTR.cacheReadTokens]: usage.cacheReadTokens,
    [ATTR.cacheCreationTokens]: usage.cacheWriteTokens,
    [ATTR.costUsd]: usage.costUsd,
  };
}

/** The error's kind is the status message: its text may quote a provider's answer, never exported. */
function setError(session: TracerSession, span: Span, error: StepError): void {
  span.setStatus({ code: session.api.SpanStatusCode.ERROR, message: error.kind });
}
