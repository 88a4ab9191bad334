import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SpanStatusCode } from "@opentelemetry/api";
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { decodeTraces } from "./decode-traces.ts";

/**
 * The receiver's decoder reads what the official OpenTelemetry transformer writes, in both OTLP
 * encodings: ids, parent links, names, times, typed attributes and status.
 */
function exportedSpans() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer("decode-test");
  const parent = tracer.startSpan("parent", { startTime: new Date(1_700_000_000_000) });
  parent.setAttributes({ text: "a", count: 3, ratio: 0.5, flag: true, negative: -7 });
  parent.setStatus({ code: SpanStatusCode.ERROR, message: "boom" });
  parent.end(new Date(1_700_000_001_000));
  return exporter.getFinishedSpans();
}

describe("decodeTraces", () => {
  for (const [name, serializer, type] of [
    ["protobuf", ProtobufTraceSerializer, "application/x-protobuf"],
    ["JSON", JsonTraceSerializer, "application/json"],
  ] as const) {
    it(`decodes an OTLP ${name} request written by the official transformer`, () => {
      const spans = exportedSpans();
      const body = serializer.serializeRequest(spans);
      assert.ok(body);
      const [decoded] = decodeTraces(body, type);
      const [original] = spans;
      assert.ok(decoded && original);
      assert.equal(decoded.traceId, original.spanContext().traceId);
      assert.equal(decoded.spanId, original.spanContext().spanId);
      assert.equal(decoded.parentSpanId, "");
      assert.equal(decoded.name, "parent");
      assert.equal(decoded.startNs, 1_700_000_000_000_000_000n);
      assert.equal(decoded.endNs, 1_700_000_001_000_000_000n);
      assert.deepEqual(decoded.attributes, { text: "a", count: 3, ratio: 0.5, flag: true, negative: -7 });
      assert.deepEqual(decoded.status, { code: 2, message: "boom" });
      assert.equal(decoded.scope, "decode-test");
    });
  }
});
