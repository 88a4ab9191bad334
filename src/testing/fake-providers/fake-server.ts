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
 * An HTTP server on 127.0.0.1 that hands each request to `handler` and records it. Any API key is
 * accepted (no header is checked). State lives in the returned object only.
 */
export async function startFakeServer(
  options: FakeServerOptions,
  handler: ProviderHandler,
): Promise<FakeProviderServer> {
  const requests: RecordedRequest[] = [];
  let modelIndex = 0;
  const server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const url = req.url ?? "/";
      const method = req.method ?? "GET";
      const body = parseJson(raw);
      const exchange: Exchange = {
        method,
        url,
        path: url.split("?")[0] ?? url,
        body,
        bodyChars: raw.length,
        res,
        nextModelIndex: () => modelIndex++,
      };
      const { route, reply } = handler(exchange);
      const headers = headersOf(req);
      const index = requests.length;
      requests.push(
        reply === undefined
          ? { index, method, url, route, headers, body }
          : { index, method, url, route, headers, body, reply },
      );
    });
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
