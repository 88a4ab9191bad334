import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { decodeTraces, type ReceivedSpan } from "./decode-traces.ts";

/**
 * An in-process OTLP/HTTP trace receiver for tests: a real HTTP server on 127.0.0.1 that accepts what
 * an OpenTelemetry exporter POSTs to `/v1/traces` (protobuf or JSON, gzipped or not), decodes it and
 * keeps the spans. Point a run at it with `OTEL_EXPORTER_OTLP_ENDPOINT=<endpoint>`.
 */
export interface OtlpReceiver {
  /** The base endpoint (`http://127.0.0.1:<port>`), for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly endpoint: string;
  /** Every span received so far, in arrival order. */
  readonly spans: readonly ReceivedSpan[];
  /** The content types of the requests received (to tell protobuf from JSON exports). */
  readonly contentTypes: readonly string[];
  /** Resolves once `predicate` holds for the spans received; rejects after `timeoutMs`. */
  waitFor(predicate: (spans: readonly ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface OtlpReceiverOptions {
  /**
   * `arrival` (default): each export is decoded as it arrives (a body that does not decode is answered
   * 400). `close`: each is only read and answered 200, and all are decoded by `close`, as a backend on
   * another machine would cost the exporting one nothing but the request (the tracing bench); `spans`
   * stays empty until then, and `close` rejects on a body that does not decode.
   */
  readonly decodeAt?: "arrival" | "close";
}

export async function startOtlpReceiver(options: OtlpReceiverOptions = {}): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const deferred: RawExport[] = [];
  const waiters = new Set<() => void>();
  const decodeNow = options.decodeAt !== "close";
  const server = createServer((request, response) => {
    void readExport(request, response).then((raw) => {
      if (raw === undefined) return;
      if (!decodeNow) {
        answer(response, raw.contentType);
        contentTypes.push(raw.contentType);
        deferred.push(raw);
        return;
      }
      const decoded = decodeOrRefuse(raw, response);
      if (decoded === undefined) return;
      contentTypes.push(raw.contentType);
      spans.push(...decoded);
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    waitFor: (predicate, timeoutMs = 10_000) => waitFor(() => predicate(spans), waiters, timeoutMs),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      for (const raw of deferred.splice(0)) spans.push(...decodeTraces(bodyOf(raw), raw.contentType));
    },
  };
}

/** An export as it arrived: its bytes, content type and whether they are gzipped. */
interface RawExport {
  readonly body: Buffer;
  readonly contentType: string;
  readonly gzipped: boolean;
}

/** Reads a request; undefined (answered 404) when it is not a trace export. */
async function readExport(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<RawExport | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (request.method !== "POST" || request.url !== "/v1/traces") {
    response.writeHead(404).end();
    return undefined;
  }
  return {
    body: Buffer.concat(chunks),
    contentType: request.headers["content-type"] ?? "application/x-protobuf",
    gzipped: request.headers["content-encoding"] === "gzip",
  };
}

function bodyOf(raw: RawExport): Buffer {
  return raw.gzipped ? gunzipSync(raw.body) : raw.body;
}

/** Decodes an export and answers it: 200 with its spans, or 400 (and undefined) when it does not decode. */
function decodeOrRefuse(raw: RawExport, response: ServerResponse): ReceivedSpan[] | undefined {
  try {
    const spans = decodeTraces(bodyOf(raw), raw.contentType);
    answer(response, raw.contentType);
    return spans;
  } catch (error) {
    response.writeHead(400, { "content-type": "text/plain" }).end(String(error));
    return undefined;
  }
}

/** The exporter's success answer, in its own encoding. */
function answer(response: ServerResponse, contentType: string): void {
  const json = contentType.includes("json");
  response.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" });
  response.end(json ? "{}" : Buffer.alloc(0));
}

function waitFor(holds: () => boolean, waiters: Set<() => void>, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (!holds()) return;
      clearTimeout(timer);
      waiters.delete(check);
      resolve();
    };
    const timer = setTimeout(() => {
      waiters.delete(check);
      reject(new Error(`the OTLP receiver did not get the expected spans within ${timeoutMs} ms`));
    }, timeoutMs);
    waiters.add(check);
    check();
  });
}

/**
 * The span tree as indented lines of names (children in start order), for readable assertions:
 * `hankweave.run\n  codon a\n    attempt 1`.
 */
export function spanTreeLines(spans: readonly ReceivedSpan[]): string[] {
  const byParent = new Map<string, ReceivedSpan[]>();
  const ids = new Set(spans.map((span) => span.spanId));
  for (const span of spans) {
    const parent = ids.has(span.parentSpanId) ? span.parentSpanId : "";
    byParent.set(parent, [...(byParent.get(parent) ?? []), span]);
  }
  const lines: string[] = [];
  const visit = (parent: string, depth: number): void => {
    const children = [...(byParent.get(parent) ?? [])].sort((a, b) =>
      a.startNs === b.startNs ? 0 : a.startNs < b.startNs ? -1 : 1,
    );
    for (const child of children) {
      lines.push(`${"  ".repeat(depth)}${child.name}`);
      visit(child.spanId, depth + 1);
    }
  };
  visit("", 0);
  return lines;
}
