/** Observability: OpenTelemetry traces of runs (loaded only when tracing is on). */
export {
  createProvider,
  type OwnedProvider,
  type RunTracing,
  type StartTracingInput,
  startRunTracing,
  type TracingOptions,
} from "./start-tracing.ts";
export { firstRecordId, type TraceRoot, traceRootOf } from "./trace-root.ts";
export { OTEL_SWITCH_ENV, type TracingSettings, tracingSettings, tracingWanted } from "./tracing-settings.ts";
