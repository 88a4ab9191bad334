import { double, fixed64, hex, readFields, text, type WireField } from "./protobuf-reader.ts";

/** An attribute value as the test kit reports it (arrays and maps are kept as JSON text). */
export type AttributeValue = string | number | boolean;

/** One span as received: ids in lowercase hex, times in nanoseconds since the epoch. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Empty for a span without a parent. */
  readonly parentSpanId: string;
  readonly name: string;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  /** 0 unset, 1 ok, 2 error (OTLP `Status.StatusCode`). */
  readonly status: { readonly code: number; readonly message: string };
  readonly resource: Readonly<Record<string, AttributeValue>>;
  readonly scope: string;
}

/**
 * Decodes an OTLP/HTTP `ExportTraceServiceRequest` body, protobuf or JSON (the two encodings of the
 * OTLP specification), into spans. Field numbers are those of opentelemetry/proto/trace/v1/trace.proto.
 */
export function decodeTraces(body: Uint8Array, contentType: string): ReceivedSpan[] {
  return contentType.includes("json") ? decodeJson(body) : decodeProtobuf(body);
}

function decodeProtobuf(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of only(readFields(body), 1)) {
    const fields = readFields(bytesOf(resourceSpans));
    const resourceField = only(fields, 1)[0];
    const resource =
      resourceField === undefined ? {} : attributesOf(only(readFields(bytesOf(resourceField)), 1));
    for (const scopeSpans of only(fields, 2)) {
      const scopeFields = readFields(bytesOf(scopeSpans));
      const scopeField = only(scopeFields, 1)[0];
      const scope = scopeField === undefined ? "" : text(only(readFields(bytesOf(scopeField)), 1)[0]?.bytes);
      for (const span of only(scopeFields, 2)) spans.push(spanOf(readFields(bytesOf(span)), resource, scope));
    }
  }
  return spans;
}

function spanOf(fields: WireField[], resource: Record<string, AttributeValue>, scope: string): ReceivedSpan {
  const first = (n: number) => only(fields, n)[0];
  const statusField = first(15);
  const status = statusField === undefined ? [] : readFields(bytesOf(statusField));
  return {
    traceId: hex(first(1)?.bytes),
    spanId: hex(first(2)?.bytes),
    parentSpanId: hex(first(4)?.bytes),
    name: text(first(5)?.bytes),
    startNs: fixed64(first(7)?.bytes),
    endNs: fixed64(first(8)?.bytes),
    attributes: attributesOf(only(fields, 9)),
    status: { code: Number(only(status, 3)[0]?.varint ?? 0n), message: text(only(status, 2)[0]?.bytes) },
    resource,
    scope,
  };
}

function attributesOf(keyValues: WireField[]): Record<string, AttributeValue> {
  const attributes: Record<string, AttributeValue> = {};
  for (const keyValue of keyValues) {
    const fields = readFields(bytesOf(keyValue));
    const key = text(only(fields, 1)[0]?.bytes);
    const value = only(fields, 2)[0];
    if (value !== undefined) attributes[key] = anyValueOf(readFields(bytesOf(value))[0]);
  }
  return attributes;
}

function anyValueOf(field: WireField | undefined): AttributeValue {
  switch (field?.field) {
    case 1:
      return text(field.bytes);
    case 2:
      return field.varint === 1n;
    case 3:
      return Number(BigInt.asIntN(64, field.varint ?? 0n));
    case 4:
      return double(field.bytes);
    default:
      return "";
  }
}

function only(fields: WireField[], field: number): WireField[] {
  return fields.filter((f) => f.field === field);
}

function bytesOf(field: WireField): Uint8Array {
  if (field.bytes === undefined) throw new Error(`field ${field.field} is not length-delimited`);
  return field.bytes;
}

interface JsonKeyValue {
  key: string;
  value?: { stringValue?: string; boolValue?: boolean; intValue?: number | string; doubleValue?: number };
}
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: JsonKeyValue[];
  status?: { code?: number; message?: string };
}
interface JsonRequest {
  resourceSpans?: {
    resource?: { attributes?: JsonKeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: JsonSpan[] }[];
  }[];
}

/** OTLP JSON: ids are hex strings, 64-bit integers may be strings, enums are numbers. */
function decodeJson(body: Uint8Array): ReceivedSpan[] {
  const request = JSON.parse(Buffer.from(body).toString("utf8")) as JsonRequest;
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = jsonAttributes(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        spans.push({
          traceId: span.traceId.toLowerCase(),
          spanId: span.spanId.toLowerCase(),
          parentSpanId: (span.parentSpanId ?? "").toLowerCase(),
          name: span.name,
          startNs: BigInt(span.startTimeUnixNano),
          endNs: BigInt(span.endTimeUnixNano),
          attributes: jsonAttributes(span.attributes),
          status: { code: span.status?.code ?? 0, message: span.status?.message ?? "" },
          resource,
          scope: scopeSpans.scope?.name ?? "",
        });
      }
    }
  }
  return spans;
}

function jsonAttributes(keyValues: JsonKeyValue[] | undefined): Record<string, AttributeValue> {
  const attributes: Record<string, AttributeValue> = {};
  for (const { key, value } of keyValues ?? []) {
    if (value?.stringValue !== undefined) attributes[key] = value.stringValue;
    else if (value?.boolValue !== undefined) attributes[key] = value.boolValue;
    else if (value?.intValue !== undefined) attributes[key] = Number(value.intValue);
    else if (value?.doubleValue !== undefined) attributes[key] = value.doubleValue;
  }
  return attributes;
}
