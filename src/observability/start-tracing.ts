import type { TracerProvider } from "@opentelemetry/api";
import type { JournaledEvent } from "../events/events.ts";
import { RunSpanTree } from "./run-span-tree.ts";
import { firstRecordId, traceRootOf } from "./trace-root.ts";
import { type TracingSettings, tracingSettings } from "./tracing-settings.ts";

/** What a library caller may pass to trace a run through its own OpenTelemetry set-up. */
export interface TracingOptions {
  /**
   * Trace the run even when no `OTEL_*` variable asks for it (`--otel`); the exporter still reads its
   * endpoint, protocol and headers from the environment. `OTEL_SDK_DISABLED=true` still wins.
   */
  readonly enabled?: boolean;
  /**
   * The caller's provider: spans go wherever it exports them, whatever the environment says. The run
   * flushes it at its end (`forceFlush`) but never shuts it down: the caller owns it.
   */
  readonly tracerProvider?: TracerProvider;
}

/** A traced run: feed it every journaled event, close it once the run is over. */
export interface RunTracing {
  readonly onEvent: (event: JournaledEvent) => void;
  /** Ends the spans still open at `at`, then flushes; never rejects. */
  close(at: Date): Promise<void>;
}

export interface StartTracingInput {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly options?: TracingOptions | undefined;
  readonly executionPath: string;
  readonly journalPath: string;
  readonly version: string;
}

/**
 * Starts tracing for one run, or returns undefined when tracing is off (no provider passed, no
 * `OTEL_*` or `HANKWEAVE_OTEL` variable): then no OpenTelemetry module is ever loaded. The SDK and the
 * exporter are imported here, dynamically, and only here.
 */
export async function startRunTracing(input: StartTracingInput): Promise<RunTracing | undefined> {
  const given = input.options?.tracerProvider;
  const settings =
    given === undefined ? tracingSettings(input.env, input.options?.enabled === true) : undefined;
  if (given === undefined && settings === undefined) return undefined;
  const api = await import("@opentelemetry/api");
  const owned = settings === undefined ? undefined : await createProvider(settings, input.version);
  const provider: TracerProvider = given ?? owned ?? api.trace.getTracerProvider();
  const known = firstRecordId(input.journalPath);
  const tree = new RunSpanTree({
    api,
    tracer: provider.getTracer("hankweave", input.version),
    executionPath: input.executionPath,
    root: known === undefined ? undefined : traceRootOf(known),
    rootOf: traceRootOf,
  });
  return {
    onEvent: tree.onEvent,
    close: async (at) => {
      tree.endAll(at);
      await settle(owned === undefined ? flushOf(given) : owned.shutdown());
    },
  };
}

/** A provider this process created, and so shuts down. */
export interface OwnedProvider extends TracerProvider {
  shutdown(): Promise<void>;
}

/** Our own provider: a batch processor over the OTLP/HTTP exporter of the configured encoding. */
export async function createProvider(settings: TracingSettings, version: string): Promise<OwnedProvider> {
  const [sdk, resources, exporterModule] = await Promise.all([
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/resources"),
    settings.protocol === "http/json"
      ? import("@opentelemetry/exporter-trace-otlp-http")
      : import("@opentelemetry/exporter-trace-otlp-proto"),
  ]);
  const exporter = new exporterModule.OTLPTraceExporter({
    url: settings.url,
    headers: { ...settings.headers },
  });
  return new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({
      "service.name": settings.serviceName,
      "service.version": version,
    }),
    spanProcessors: [new sdk.BatchSpanProcessor(exporter)],
  });
}

function flushOf(provider: TracerProvider | undefined): Promise<unknown> | undefined {
  if (provider === undefined || !("forceFlush" in provider)) return undefined;
  const flush = provider.forceFlush;
  return typeof flush === "function" ? Promise.resolve(flush.call(provider)) : undefined;
}

/** An export that fails (no collector listening) must not fail the run. */
async function settle(work: Promise<unknown> | undefined): Promise<void> {
  try {
    await work;
  } catch {
    // Reported by the exporter's own diagnostics; the run's outcome does not depend on its spans.
  }
}
