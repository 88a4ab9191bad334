/**
 * The tracing thread's entry (see trace-thread.ts): builds the run's span tree and exports it with a
 * provider of its own, so that the SDK's span bookkeeping and the exporter's encoding and sending never
 * run on the run's thread. OpenTelemetry is loaded here, by `openOwnedTracer`, and only here.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openOwnedTracer } from "./open-tracer.ts";
import { RunSpanTree } from "./run-span-tree.ts";
import type { TraceEvent } from "./trace-event.ts";
import { traceRootOf } from "./trace-root.ts";
import type { FromTraceThread, ToTraceThread, TraceThreadInput } from "./trace-thread-messages.ts";

const port = parentPort;
const input: TraceThreadInput = workerData;

/** Opened once; messages wait on it in order (each `then` runs in the order it was attached). */
const opened = openOwnedTracer(input.settings, input.version, "hankweave").then((session) => ({
  session,
  tree: new RunSpanTree({
    api: session.api,
    tracer: session.tracer,
    ...(input.executionPath !== undefined && { executionPath: input.executionPath }),
    root: input.root,
    rootOf: traceRootOf,
  }),
}));

void opened.then(ignore, ignore).finally(() => answer("ready"));

port?.on("message", (message: ToTraceThread) => {
  if (message.kind === "events") {
    void opened.then(({ tree }) => {
      for (const event of eventsOf(message.json)) tree.onEvent(event);
    }, ignore);
    return;
  }
  void opened
    .then(async ({ tree, session }) => {
      tree.endAll(new Date(message.at));
      await session.close();
    }, ignore)
    .finally(() => answer("closed"));
});

function answer(kind: FromTraceThread["kind"]): void {
  const message: FromTraceThread = { kind };
  port?.postMessage(message);
}

/** The batch the run's thread wrote (trace-thread.ts): JSON of `TraceEvent[]`, by contract. */
function eventsOf(json: string): readonly TraceEvent[] {
  return JSON.parse(json) as TraceEvent[];
}

/** A provider that could not be opened traces nothing; the run never depends on its spans. */
function ignore(): void {}
