import type { Attributes, Context, Tracer } from "@opentelemetry/api";
import {
  type GenerationRecord,
  type LoopRunRecord,
  type LoopStore,
  TERMINAL_STATES,
} from "../loops/index.ts";
import { type OtelApi, openTracer } from "../observability/index.ts";

const TERMINAL_ENDS: ReadonlySet<string> = new Set(TERMINAL_STATES);

/** The daemon's Loop traces: `poll` after each pass, `close` at shutdown. */
export interface LoopTracing {
  poll(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Traces of Loop runs: when a run reaches a terminal state, its tree is exported in one pass from the
 * store's records — `loop run <loop>` → `generation <n>` → `body` and `gate <id>` — with the records'
 * own times. A run's tree appears once it has ended (the records are the truth; nothing in the
 * coordinator changes). Gates carry no times of their own: their spans sit at their generation's end.
 * The bodies' own runs are traced as any run is, in their execution's trace (docs/observability.md).
 * Undefined when tracing is off; OpenTelemetry is imported only when it is on.
 */
export async function startLoopTracing(
  store: LoopStore,
  env: Readonly<Record<string, string | undefined>>,
  version: string,
): Promise<LoopTracing | undefined> {
  const session = await openTracer({ env, version, scope: "hankweave.loops" });
  if (session === undefined) return undefined;
  const { api, tracer } = session;
  let after = await lastSeq(store);
  return {
    poll: async () => {
      for (;;) {
        const events = await store.events(after, undefined, 500);
        for (const event of events) {
          after = event.seq;
          if (event.type !== "run.state" || !TERMINAL_ENDS.has(event.data.to)) continue;
          const run = await store.getRun(event.runId);
          if (run !== undefined) exportRun(api, tracer, run, await store.generations(run.id), event.at);
        }
        if (events.length < 500) return;
      }
    },
    close: () => session.close(),
  };
}

/** Runs that ended before the daemon started were traced by the daemon that saw them end. */
async function lastSeq(store: LoopStore): Promise<number> {
  let after = 0;
  for (;;) {
    const events = await store.events(after, undefined, 1000);
    const last = events.at(-1);
    if (last === undefined) return after;
    after = last.seq;
  }
}

function exportRun(
  api: OtelApi,
  tracer: Tracer,
  run: LoopRunRecord,
  generations: readonly GenerationRecord[],
  endedAt: string,
): void {
  const end = new Date(run.endedAt ?? endedAt);
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
  if (run.state === "failed") span.setStatus({ code: api.SpanStatusCode.ERROR, message: "failed" });
  const context = api.trace.setSpan(api.ROOT_CONTEXT, span);
  for (const generation of generations) exportGeneration(api, tracer, context, generation, end);
  span.end(end);
}

function exportGeneration(
  api: OtelApi,
  tracer: Tracer,
  parent: Context,
  generation: GenerationRecord,
  runEnd: Date,
): void {
  const start = new Date(generation.startedAt);
  const end = generation.endedAt === null ? runEnd : new Date(generation.endedAt);
  const attributes: Attributes = {
    "hankweave.loop.generation": generation.number,
    "hankweave.end_reason": generation.state,
    ...(generation.tokens !== null && { "hankweave.tokens": generation.tokens }),
    ...(generation.costUsd !== null && { "hankweave.cost_usd": generation.costUsd }),
  };
  const span = tracer.startSpan(`generation ${generation.number}`, { startTime: start, attributes }, parent);
  const context = api.trace.setSpan(parent, span);
  const body = generation.facts.body;
  const bodySpan = tracer.startSpan(
    "body",
    {
      startTime: start,
      attributes: {
        "hankweave.end_reason": body.kind,
        ...(generation.bodyRunId !== null && { "hankweave.run.id": generation.bodyRunId }),
      },
    },
    context,
  );
  if (body.kind === "error") bodySpan.setStatus({ code: api.SpanStatusCode.ERROR, message: "body failed" });
  bodySpan.end(end);
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
    if (gate.verdict === "error")
      gateSpan.setStatus({ code: api.SpanStatusCode.ERROR, message: "gate error" });
    gateSpan.end(end);
  }
  if (generation.state === "error") span.setStatus({ code: api.SpanStatusCode.ERROR, message: "error" });
  span.end(end);
}
