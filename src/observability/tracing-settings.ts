/**
 * Whether a run is traced, and where its spans go, decided from the standard OpenTelemetry variables
 * (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/) and our switch.
 * Pure: it reads the environment it is given, never `process.env`.
 *
 * Tracing is on when `HANKWEAVE_OTEL` is 1 or true (the `--otel` flag sets it), when an OTLP endpoint
 * is set (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), or when
 * `OTEL_TRACES_EXPORTER` names `otlp`. `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` turns it
 * off whatever else says.
 */

export const OTEL_SWITCH_ENV = "HANKWEAVE_OTEL";

/** The OTLP/HTTP encodings the exporters speak; the specification's default is protobuf. */
export type OtlpProtocol = "http/protobuf" | "http/json";

export interface TracingSettings {
  /** The full URL spans are POSTed to (`.../v1/traces`). */
  readonly url: string;
  readonly protocol: OtlpProtocol;
  readonly serviceName: string;
  /** Extra request headers (`OTEL_EXPORTER_OTLP_HEADERS`: `key=value,key2=value2`, values URL-encoded). */
  readonly headers: Readonly<Record<string, string>>;
}

type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_ENDPOINT = "http://localhost:4318";

/** The settings of a traced run, or undefined when tracing is off. */
export function tracingSettings(env: Env, switchedOn = false): TracingSettings | undefined {
  if (!tracingWanted(env, switchedOn)) return undefined;
  return {
    url: tracesUrl(env),
    protocol: protocolOf(env),
    serviceName: nonEmpty(env.OTEL_SERVICE_NAME) ?? "hankweave",
    headers: parseHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? env.OTEL_EXPORTER_OTLP_HEADERS),
  };
}

/** `switchedOn`: the `--otel` flag or a caller's `tracing.enabled`, worth `HANKWEAVE_OTEL=1`. */
export function tracingWanted(env: Env, switchedOn = false): boolean {
  if (isTrue(env.OTEL_SDK_DISABLED)) return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "").split(",").map((name) => name.trim());
  if (exporters.includes("none")) return false;
  return (
    switchedOn ||
    isTrue(env[OTEL_SWITCH_ENV]) ||
    nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT) !== undefined ||
    nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) !== undefined ||
    exporters.includes("otlp")
  );
}

/** The signal-specific endpoint is used as is; the general one gets `/v1/traces` appended. */
function tracesUrl(env: Env): string {
  const specific = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (specific !== undefined) return specific;
  const base = nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT) ?? DEFAULT_ENDPOINT;
  return `${base.replace(/\/+$/, "")}/v1/traces`;
}

function protocolOf(env: Env): OtlpProtocol {
  const named = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL;
  return named?.trim() === "http/json" ? "http/json" : "http/protobuf";
}

function parseHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

function isTrue(value: string | undefined): boolean {
  const v = value?.trim().toLowerCase();
  return v === "1" || v === "true";
}

function nonEmpty(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v === undefined || v === "" ? undefined : v;
}
