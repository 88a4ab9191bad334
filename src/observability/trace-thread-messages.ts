import type { TraceRoot } from "./trace-root.ts";
import type { TracingSettings } from "./tracing-settings.ts";

/**
 * The tracing thread's contract (trace-thread.ts starts it, trace-worker.ts is its entry). Everything
 * here is plain data: it crosses threads by structured clone.
 */

/** The thread's `workerData`: what it needs to open its own provider and span tree. */
export interface TraceThreadInput {
  readonly settings: TracingSettings;
  readonly version: string;
  readonly executionPath?: string;
  /** The execution's trace, when its journal already had a first record (a resumed execution). */
  readonly root?: TraceRoot;
}

/**
 * From the run's thread: events in journal order, then one `close`. A batch travels as the JSON text
 * of its `TraceEvent[]`: one string is copied across, where a structured clone walks every object of
 * the batch on the run's thread (about 1.7 times the cost of the JSON, measured over 1,600 codons).
 */
export type ToTraceThread =
  | { readonly kind: "events"; readonly json: string }
  /** End the spans still open at `at` (epoch ms), flush and shut the provider down, then answer. */
  | { readonly kind: "close"; readonly at: number };

/**
 * `ready` once its provider is open (or failed to open: then it traces nothing), so that loading
 * OpenTelemetry happens before the run as it does on the run's thread; `closed` answers `close` once
 * the spans are exported (or given up on).
 */
export interface FromTraceThread {
  readonly kind: "ready" | "closed";
}
