import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import type { LoopEvent } from "../events/loop-events.ts";
import type { GenerationRecord, LoopRunRecord } from "../loops/index.ts";
import type { OtelApi } from "../observability/index.ts";

/** A `hook.ran` entry of the Loops event log. */
export type HookRanEvent = Extract<LoopEvent, { readonly type: "hook.ran" }>;

/** What one ended Loop run's tree is made of: its record, its generations, the hooks that ran. */
export interface EndedLoopRun {
  readonly run: LoopRunRecord;
  readonly generations: readonly GenerationRecord[];
  readonly hooks: readonly HookRanEvent[];
  /** When the log says the run ended (used when the record has no `endedAt`). */
  readonly endedAt: string;
}

interface Spans {
  readonly api: OtelApi;
  readonly tracer: Tracer;
}

/**
 * One ended Loop run as spans, with the records' own times: `loop run <loop>` → `generation <n>` →
 * `body`, `hook <name>` (each with its logged times) and `gate <id>` (at the generation's end: gates
 * carry no times). A `generation_pre` hook that denied or failed has no generation to sit in: its span
 * is the run's child.
 */
export function exportLoopRun(spans: Spans, ended: EndedLoopRun): void {
  const { api, tracer } = spans;
  const { run, generations } = ended;
  const end = new Date(run.endedAt ?? ended.endedAt);
  const span = tracer.startSpan(`loop run ${run.loopId}`, {
    startTime: new Date(run.createdAt),
    attributes: {
      "hankweave.loop.id": run.loopId,
      "hankweave.loop.run.id": run.id,
      "hankweave.loop.state": run.state,
      ...(run.cause !== null && { "hankweave.end_reason": String(run.cause) }),
      "hankweave.loop.generations": generations.length,
    },
  });
  if (run.state === "failed") setError(api, span, "failed");
  const context = api.trace.setSpan(api.ROOT_CONTEXT, span);
  const numbered = new Set(generations.map((generation) => generation.number));
  for (const hook of ended.hooks.filter((hook) => !numbered.has(hook.data.generation)))
    exportHook(spans, context, hook);
  for (const generation of generations) {
    const hooks = ended.hooks.filter((hook) => hook.data.generation === generation.number);
    exportGeneration(spans, context, generation, hooks, end);
  }
  span.end(end);
}

function exportGeneration(
  spans: Spans,
  parent: Context,
  generation: GenerationRecord,
  hooks: readonly HookRanEvent[],
  runEnd: Date,
): void {
  const { api, tracer } = spans;
  const bodyEnd = generation.endedAt === null ? runEnd : new Date(generation.endedAt);
  // The generation's span covers its hooks: a generation_pre runs before the generation is numbered,
  // a gate_pre after its body; the gates (no times of their own) sit at the end, after the gate_pre.
  const start = new Date(Math.min(Date.parse(generation.startedAt), ...hooks.map(startOf)));
  const end = new Date(Math.max(bodyEnd.getTime(), ...hooks.map((hook) => Date.parse(hook.at))));
  const attributes: Attributes = {
    "hankweave.loop.generation": generation.number,
    "hankweave.end_reason": generation.state,
    ...(generation.tokens !== null && { "hankweave.tokens": generation.tokens }),
    ...(generation.costUsd !== null && { "hankweave.cost_usd": generation.costUsd }),
  };
  const span = tracer.startSpan(`generation ${generation.number}`, { startTime: start, attributes }, parent);
  const context = api.trace.setSpan(parent, span);
  exportBody(spans, context, generation, bodyEnd);
  for (const hook of hooks) exportHook(spans, context, hook);
  for (const gate of generation.facts.gates) {
    const gateSpan = tracer.startSpan(
      `gate ${gate.gateId}`,
      {
        startTime: end,
        attributes: {
          "hankweave.gate.verdict": gate.verdict,
          "hankweave.gate.blockers": gate.blockerIds.length,
        },
      },
      context,
    );
    if (gate.verdict === "error") setError(api, gateSpan, "gate error");
    gateSpan.end(end);
  }
  if (generation.state === "error") setError(api, span, "error");
  span.end(end);
}

function exportBody(spans: Spans, parent: Context, generation: GenerationRecord, end: Date): void {
  const body = generation.facts.body;
  const span = spans.tracer.startSpan(
    "body",
    {
      startTime: new Date(generation.startedAt),
      attributes: {
        "hankweave.end_reason": body.kind,
        ...(generation.bodyRunId !== null && { "hankweave.run.id": generation.bodyRunId }),
      },
    },
    parent,
  );
  if (body.kind === "error") setError(spans.api, span, "body failed");
  span.end(end);
}

/** A hook's span: its logged start and end; ERROR when it could not answer (a deny is an answer). */
function exportHook(spans: Spans, parent: Context, hook: HookRanEvent): void {
  const span = spans.tracer.startSpan(
    `hook ${hook.data.hook}`,
    {
      startTime: new Date(startOf(hook)),
      attributes: {
        "hankweave.hook.name": hook.data.hook,
        "hankweave.hook.answer": hook.data.answer,
        "hankweave.loop.generation": hook.data.generation,
      },
    },
    parent,
  );
  if (hook.data.answer === "error") setError(spans.api, span, "hook error");
  span.end(new Date(hook.at));
}

function startOf(hook: HookRanEvent): number {
  return Date.parse(hook.data.startedAt);
}

function setError(api: OtelApi, span: Span, message: string): void {
  span.setStatus({ code: api.SpanStatusCode.ERROR, message });
}
