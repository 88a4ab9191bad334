import type { Context, Tracer, TracerProvider } from "@opentelemetry/api";
import { type TracingSettings, tracingSettings } from "./tracing-settings.ts";

/** The `@opentelemetry/api` module, passed around so that no file of ours loads it by itself. */
export type OtelApi = typeof import("@opentelemetry/api");

/** What a library caller may pass to trace work through its own OpenTelemetry set-up. */
export interface TracingOptions {
  /**
   * Trace even when no `OTEL_*` variable asks for it (`--otel`); the exporter still reads its endpoint,
   * protocol and headers from the environment. `OTEL_SDK_DISABLED=true` still wins.
   */
  readonly enabled?: boolean;
  /**
   * The caller's provider: spans go wherever it exports them, whatever the environment says. The work
   * flushes it at its end (`forceFlush`) but never shuts it down: the caller owns it.
   */
  readonly tracerProvider?: TracerProvider;
  /**
   * The context whose span the work's top span is a child of (a `loop()`'s span, a caller's own span):
   * a run traced under it belongs to that trace instead of its execution's own.
   */
  readonly parent?: Context;
}

/** A tracer ready to use: the module, the tracer, and the provider it comes from. */
export interface TracerSession {
  readonly api: OtelApi;
  readonly tracer: Tracer;
  /** The provider, to hand on to work traced under this session's spans (it flushes, never shuts down). */
  readonly provider: TracerProvider;
  /** Flushes a caller's provider, shuts down our own; never rejects. */
  close(): Promise<void>;
}

export interface OpenTracerInput {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly options?: TracingOptions | undefined;
  readonly version: string;
  /** The instrumentation scope the spans are reported under (`hankweave`, `hankweave.loops`). */
  readonly scope: string;
}

/**
 * A tracer, or undefined when tracing is off (no provider passed, no `OTEL_*` or `HANKWEAVE_OTEL`
 * variable, no `enabled`): then no OpenTelemetry module is ever loaded. The API, the SDK and the
 * exporter are imported here, dynamically, and only here.
 */
export async function openTracer(input: OpenTracerInput): Promise<TracerSession | undefined> {
  const given = input.options?.tracerProvider;
  const settings =
    given === undefined ? tracingSettings(input.env, input.options?.enabled === true) : undefined;
  if (given === undefined && settings === undefined) return undefined;
  if (given === undefined && settings !== undefined)
    return openOwnedTracer(settings, input.version, input.scope);
  const api = await import("@opentelemetry/api");
  const provider: TracerProvider = given ?? api.trace.getTracerProvider();
  return {
    api,
    tracer: provider.getTracer(input.scope, input.version),
    provider,
    close: () => settle(flushOf(given)),
  };
}

/** A tracer on a provider of our own (see `createProvider`), which `close` shuts down. */
export async function openOwnedTracer(
  settings: TracingSettings,
  version: string,
  scope: string,
): Promise<TracerSession> {
  const [api, owned] = await Promise.all([import("@opentelemetry/api"), createProvider(settings, version)]);
  return {
    api,
    tracer: owned.getTracer(scope, version),
    provider: owned,
    close: () => settle(owned.shutdown()),
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

/** An export that fails (no collector listening) must not fail the work. */
async function settle(work: Promise<unknown> | undefined): Promise<void> {
  try {
    await work;
  } catch {
    // Reported by the exporter's own diagnostics; the work's outcome does not depend on its spans.
  }
}
