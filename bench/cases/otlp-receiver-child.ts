/**
 * The OTLP receiver of the tracing bench, in a process of its own: prints its endpoint on the first
 * stdout line, then, once stdin closes, the number of spans it received, and exits.
 *
 * It stands for a backend on another machine, which costs the traced machine nothing but the export's
 * request and its answer. So while the run is measured it only reads each export and answers it (what
 * the exporter waits for); it decodes them once stdin closes, after the measurement, with the test kit's
 * decoder (`decodeTraces`, which the tracing tests use to check the span tree). Decoding as they
 * arrived put a backend's work (20–90 ms of CPU a run, on this machine's two cores) inside the
 * measured window, whenever an export fell in it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { decodeTraces } from "../../src/testing/index.ts";

interface Export {
  readonly body: Buffer;
  readonly contentType: string;
  readonly gzipped: boolean;
}

const exports: Export[] = [];
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    if (request.method !== "POST" || request.url !== "/v1/traces") {
      response.writeHead(404).end();
      return;
    }
    const contentType = request.headers["content-type"] ?? "application/x-protobuf";
    const gzipped = request.headers["content-encoding"] === "gzip";
    exports.push({ body: Buffer.concat(chunks), contentType, gzipped });
    const json = contentType.includes("json");
    response.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" });
    response.end(json ? "{}" : Buffer.alloc(0));
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address() as AddressInfo;
process.stdout.write(`http://127.0.0.1:${port}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  server.closeAllConnections();
  server.close();
  process.stdout.write(`${spansIn(exports)}\n`);
  process.exit(0);
});

/** The spans of every export, decoded; a body that does not decode throws (the bench then fails). */
function spansIn(received: readonly Export[]): number {
  let spans = 0;
  for (const { body, contentType, gzipped } of received)
    spans += decodeTraces(gzipped ? gunzipSync(body) : body, contentType).length;
  return spans;
}
