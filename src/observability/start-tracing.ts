import type { JournaledEvent } from "../events/events.ts";
import { openTracer, type TracingOptions } from "./open-tracer.ts";
import { RunSpanTree } from "./run-span-tree.ts";
import { traceEventOf } from "./trace-event.ts";
import { firstRecordId, type TraceRoot, traceRootOf } from "./trace-root.ts";
import { startTraceThread } from "./trace-thread.ts";
import { tracingSettings } from "./tracing-settings.ts";

/** A traced run: feed it every journaled event, close it once the run is over. */
export interface RunTracing {
  readonly onEvent: (event: JournaledEvent) => void;
  /** Ends the spans still open at `at`, then flushes; never rejects. */
  close(at: Date): Promise<void>;
}

export interface StartTracingInput {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly options?: TracingOptions | undefined;
  /** The execution directory; absent for a run that has none (a transient `loop()`). */
  readonly executionPath?: string;
  /** The journal, whose first record names the execution's trace; absent for a journal that keeps nothing. */
  readonly journalPath?: string;
  readonly version: string;
}

/**
 * Starts tracing for one run, or returns undefined when tracing is off: then no OpenTelemetry module is
 * ever loaded (see `openTracer`), and no thread is started.
 */
export async function startRunTracing(input: StartTracingInput): Promise<RunTracing | undefined> {
  const root = rootOf(input.journalPath);
  return (await onItsThread(input, root)) ?? (await onThisThread(input, root));
}

/**
 * Our own provider, configured by the environment, runs on the tracing thread (trace-thread.ts): the
 * run's thread only projects its events and posts them in batches. A caller's provider or parent
 * context cannot cross threads, so those runs are traced on this thread, as is a run whose bundle lacks
 * the thread's entry.
 */
async function onItsThread(
  input: StartTracingInput,
  root: TraceRoot | undefined,
): Promise<RunTracing | undefined> {
  const { options } = input;
  if (options?.tracerProvider !== undefined || options?.parent !== undefined) return undefined;
  const settings = tracingSettings(input.env, options?.enabled === true);
  if (settings === undefined) return undefined;
  return startTraceThread({
    settings,
    version: input.version,
    ...(input.executionPath !== undefined && { executionPath: input.executionPath }),
    ...(root !== undefined && { root }),
  });
}

async function onThisThread(
  input: StartTracingInput,
  root: TraceRoot | undefined,
): Promise<RunTracing | undefined> {
  const session = await openTracer({ ...input, scope: "hankweave" });
  if (session === undefined) return undefined;
  const tree = new RunSpanTree({
    api: session.api,
    tracer: session.tracer,
    ...(input.executionPath !== undefined && { executionPath: input.executionPath }),
    root,
    rootOf: traceRootOf,
    ...(input.options?.parent !== undefined && { parent: input.options.parent }),
  });
  return {
    onEvent: (event) => {
      const traced = traceEventOf(event);
      if (traced !== undefined) tree.onEvent(traced);
    },
    close: async (at) => {
      tree.endAll(at);
      await session.close();
    },
  };
}

/** The execution's trace, when its journal already has a first record (a resumed execution). */
function rootOf(journalPath: string | undefined): TraceRoot | undefined {
  const known = journalPath === undefined ? undefined : firstRecordId(journalPath);
  return known === undefined ? undefined : traceRootOf(known);
}
