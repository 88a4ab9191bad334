/**
 * The tracing thread's entry (see trace-thread.ts): builds the run's span tree and exports it with a
 * provider of its own, so that the SDK's span bookkeeping and the exporter's encoding and sending never
 * run on the run's thread. OpenTelemetry is loaded here, by `openOwnedTracer`, and only here.
 */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { openOwnedTracer } from "./open-tracer.ts";
import { RunSpanTree } from "./run-span-tree.ts";
import type { TraceEvent } from "./trace-event.ts";
import { traceRootOf } from "./trace-root.ts";
import type { FromTraceThread, ToTraceThread, TraceThreadInput } from "./trace-thread-messages.ts";

/** Below the run's own priority (0 by default), far from the lowest (19): spans still flow. */
const TRACING_NICE = 10;

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

// Opening runs at the process's priority: the run waits for it (it loads OpenTelemetry).
void opened.then(ignore, ignore).finally(() => {
  yieldToTheRun();
  answer("ready");
});

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

/**
 * Telemetry must not compete with the work it observes: the thread lowers its own scheduling priority
 * (nice 10), so that on a busy machine the run's thread and its agents go first and the spans wait;
 * they are all exported by the time `close` answers. Linux only (a thread's nice value is its own
 * there, set through its thread id); elsewhere, or if refused, the thread keeps the process's.
 */
function yieldToTheRun(): void {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, TRACING_NICE);
  } catch {
    // Not Linux, or not allowed: nothing changes.
  }
}

/** A provider that could not be opened traces nothing; the run never depends on its spans. */
function ignore(): void {}
