import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { FakeProviderServer, FakeServerOptions, RecordedRequest } from "./fake-types.ts";

/** One received request, body read and parsed, handed to a provider's handler. */
export interface Exchange {
  readonly method: string;
  readonly url: string;
  /** The path without its query string. */
  readonly path: string;
  /** Parsed JSON body, or null. */
  readonly body: unknown;
  /** Length of the raw body in characters (the basis of input token estimates). */
  readonly bodyChars: number;
  readonly res: ServerResponse;
  /** Takes the next model-request index (count_tokens and 404s do not take one). */
  nextModelIndex(): number;
  /** The server's pace for streamed answers (`FakeServerOptions.frameIntervalMs`). */
  readonly frameIntervalMs: number;
}

/** Handles one exchange: starts the response and says how to record it. */
export type ProviderHandler = (exchange: Exchange) => {
  readonly route: RecordedRequest["route"];
  readonly reply?: string;
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

/**
 * Hands one request to the handler and returns its record. A handler that throws (a script bug) gets a
 * 500 with the error in a plain-text body, recorded as reply `script-error`.
 */
function handleRequest(
  req: IncomingMessage,
  res: ServerResponse,
  raw: string,
  index: number,
  handler: ProviderHandler,
  nextModelIndex: () => number,
  frameIntervalMs: number,
): RecordedRequest {
  const url = req.url ?? "/";
  const method = req.method ?? "GET";
  const body = parseJson(raw);
  const headers = headersOf(req);
  const path = url.split("?")[0] ?? url;
  const base = { index, method, url, headers, body };
  try {
    const { route, reply } = handler({
      method,
      url,
      path,
      body,
      bodyChars: raw.length,
      res,
      nextModelIndex,
      frameIntervalMs,
    });
    return reply === undefined ? { ...base, route } : { ...base, route, reply };
  } catch (caught) {
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end(`fake provider script threw: ${caught instanceof Error ? caught.message : String(caught)}`);
    const route = path.endsWith("/chat/completions") ? "chat_completions" : "messages";
    return { ...base, route, reply: "script-error" };
  }
}

/**
 * An HTTP server on 127.0.0.1 that hands each request to `handler` and records it. Any API key is
 * accepted (no header is checked). State lives in the returned object only.
 */
export async function startFakeServer(
  options: FakeServerOptions,
  handler: ProviderHandler,
): Promise<FakeProviderServer> {
  const requests: RecordedRequest[] = [];
  const frameIntervalMs = options.frameIntervalMs ?? 0;
  let modelIndex = 0;
  const server = createServer((req, res) => {
    void readBody(req).then(
      (raw) =>
        requests.push(
          handleRequest(req, res, raw, requests.length, handler, () => modelIndex++, frameIntervalMs),
        ),
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    requests,
    log: () => requests.map((r) => `${JSON.stringify(r)}\n`).join(""),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
