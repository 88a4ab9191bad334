/** Observability: OpenTelemetry traces of runs (loaded only when tracing is on). */
export {
  createProvider,
  type OtelApi,
  type OwnedProvider,
  openTracer,
  type TracerSession,
  type TracingOptions,
} from "./open-tracer.ts";
export { ATTR, genAiSystemOf } from "./span-names.ts";
export { type RunTracing, type StartTracingInput, startRunTracing } from "./start-tracing.ts";
export { firstRecordId, type TraceRoot, traceRootOf } from "./trace-root.ts";
export { OTEL_SWITCH_ENV, type TracingSettings, tracingSettings, tracingWanted } from "./tracing-settings.ts";
