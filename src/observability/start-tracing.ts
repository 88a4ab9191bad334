import type { JournaledEvent } from "../events/events.ts";
import { openTracer, type TracingOptions } from "./open-tracer.ts";
import { RunSpanTree } from "./run-span-tree.ts";
import { firstRecordId, traceRootOf } from "./trace-root.ts";

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
 * ever loaded (see `openTracer`).
 */
export async function startRunTracing(input: StartTracingInput): Promise<RunTracing | undefined> {
  const session = await openTracer({ ...input, scope: "hankweave" });
  if (session === undefined) return undefined;
  const known = input.journalPath === undefined ? undefined : firstRecordId(input.journalPath);
  const tree = new RunSpanTree({
    api: session.api,
    tracer: session.tracer,
    ...(input.executionPath !== undefined && { executionPath: input.executionPath }),
    root: known === undefined ? undefined : traceRootOf(known),
    rootOf: traceRootOf,
    ...(input.options?.parent !== undefined && { parent: input.options.parent }),
  });
  return {
    onEvent: tree.onEvent,
    close: async (at) => {
      tree.endAll(at);
      await session.close();
    },
  };
}
