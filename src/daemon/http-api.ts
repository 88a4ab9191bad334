import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { matchRoute } from "../events/daemon-route-types.ts";
import { DAEMON_ROUTES, type RouteName } from "../events/daemon-routes.ts";
import { checkUpgrade, DEFAULT_BIND_HOST } from "../server/access.ts";
import { defaultWebAssetsDir, serveWebAsset } from "../server/web-assets.ts";
import { apiHandlers } from "./api-handlers.ts";
import { readRequest } from "./api-request.ts";
import type { ApiHandlers, ApiOptions } from "./api-types.ts";

export type { ApiOptions } from "./api-types.ts";

/**
 * The daemon's loopback HTTP JSON API and SSE event stream. Its routes are the table in
 * `events/daemon-routes.ts` (docs/loops.md lists them): a request is matched against it, authorized,
 * validated by the route's schemas (400 naming each bad field and its fix), then handed to the
 * route's handler (`api-handlers.ts`). Every route but `/health` needs the token
 * (`Authorization: Bearer <token>`, or `?token=` for an EventSource, which cannot set headers).
 * `GET /ui/?token=<token>` serves the Loops pages with the same token (scripts and styles need none).
 *
 * A state-changing request (POST) from a browser must also come from a page of this server: its
 * `Origin`, when sent, must name the host the request was sent to.
 */
export function createApiServer(options: ApiOptions): Server {
  const handlers = apiHandlers(options);
  return createServer((request, response) => {
    handle(options, handlers, request, response).catch((caught: unknown) => {
      // A stream whose store closed under it has already sent its headers: end it.
      if (response.headersSent) response.destroy();
      else send(response, 500, { error: caught instanceof Error ? caught.message : String(caught) });
    });
  });
}

async function handle(
  options: ApiOptions,
  handlers: ApiHandlers,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  // A page on another name that resolves here (DNS rebinding) is refused before anything else.
  const access = checkUpgrade(request.headers, undefined, {
    host: options.host ?? DEFAULT_BIND_HOST,
    token: undefined,
    allowedOrigins: new Set(),
  });
  if (!access.ok) return send(response, access.status, { code: "unknown-host", error: access.message });
  const match = matchRoute(request.method ?? "GET", url.pathname);
  if (match !== undefined && !DAEMON_ROUTES[match.name].auth)
    return dispatch(handlers, match, url, request, response);
  if (serveWebAsset(request, response, webAssets(options, url))) return;
  if (!authorized(options.token, request, url))
    return send(response, 401, { error: "missing or wrong token" });
  if (request.method === "POST" && !sameOrigin(request))
    return send(response, 403, { error: "cross-origin requests may not change runs" });
  if (match === undefined) return send(response, 404, { code: "no-such-route", error: "no such route" });
  return dispatch(handlers, match, url, request, response);
}

function webAssets(options: ApiOptions, url: URL) {
  return {
    dir: options.webAssetsDir ?? defaultWebAssetsDir(),
    face: "loops" as const,
    admitPage: (page: IncomingMessage) =>
      authorized(options.token, page, url)
        ? ({ ok: true } as const)
        : ({
            ok: false,
            status: 401,
            message: "missing or wrong token: open /ui/?token=<daemon.token>",
          } as const),
  };
}

/** Any route's reply, as the sending side sees it (the handler's own type is the route's). */
type SentReply =
  | { readonly status: number; readonly body: unknown; readonly contentType?: string }
  | { readonly status: 200; readonly stream: AsyncIterable<unknown> };

/** Validates the request against its route, runs the route's handler and sends what it answers. */
async function dispatch<N extends RouteName>(
  handlers: ApiHandlers,
  match: { readonly name: N; readonly params: Readonly<Record<string, string>> },
  url: URL,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const read = await readRequest(match.name, match.params, url, request);
  if (!read.ok) return send(response, 400, read.error);
  const abort = new AbortController();
  request.on("close", () => abort.abort());
  const handler: (typeof handlers)[N] = handlers[match.name];
  const reply: SentReply = await handler(read.request, { raw: request, signal: abort.signal });
  if ("stream" in reply) return stream(response, reply.stream);
  if (typeof reply.body === "string") {
    response.writeHead(reply.status, { "content-type": reply.contentType ?? "text/plain" }).end(reply.body);
    return;
  }
  send(response, reply.status, reply.body);
}

/**
 * Server-sent events: one `data:` block per entry, until the iterable ends; an entry of the log also
 * gets its `id:` (its `seq`, which a reconnecting client sends back as `Last-Event-ID`) and `event:`.
 */
async function stream(response: ServerResponse, entries: AsyncIterable<unknown>): Promise<void> {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  for await (const entry of entries) {
    const head = isStamped(entry) ? `id: ${entry.seq}\nevent: ${entry.type}\n` : "";
    response.write(`${head}data: ${JSON.stringify(entry)}\n\n`);
  }
  response.end();
}

function isStamped(entry: unknown): entry is { readonly seq: number; readonly type: string } {
  const { seq, type } = (entry ?? {}) as { seq?: unknown; type?: unknown };
  return typeof seq === "number" && typeof type === "string";
}

/** A browser's `Origin` (absent from non-browser clients) must name the host the request went to. */
function sameOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

function authorized(token: string, request: IncomingMessage, url: URL): boolean {
  const header = request.headers.authorization ?? "";
  const given = header.startsWith("Bearer ") ? header.slice(7) : (url.searchParams.get("token") ?? "");
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}
