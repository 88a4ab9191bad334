import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import {
  COMMAND_TYPES,
  catalogEntries,
  endLayersOf,
  isTerminalState,
  type LoopCommandType,
  type LoopRunRecord,
  type LoopStore,
  refusalNow,
  successText,
} from "../loops/index.ts";
import { BUILTIN_CEILINGS, BUILTIN_DEFAULTS, type LimitConfig } from "../loops/model/limits.ts";
import { checkUpgrade, DEFAULT_BIND_HOST } from "../server/access.ts";
import { defaultWebAssetsDir, serveWebAsset } from "../server/web-assets.ts";
import type { Clock } from "../util/clock.ts";
import type { RenderMetrics } from "./daemon-metrics.ts";
import { lintRegistered, startRegistered } from "./loop-starts.ts";
import { parseStartForm } from "./start-form.ts";

/**
 * The daemon's loopback HTTP JSON API and SSE event stream. Every route but `/health` needs the token
 * (`Authorization: Bearer <token>`, or `?token=` for an EventSource, which cannot set headers).
 *
 *   GET  /runs[?loop=<id>]        runs, newest first
 *   GET  /runs/<id>               the run, its generations and its inbox (`messages`)
 *   POST /runs/<id>/commands      {"type": "pause|resume|stop|approve|reject", "add"?, "comment"?, "by"?}
 *   POST /runs/<id>/notes         {"text": "...", "by"?}
 *   GET  /events[?after=<seq>]    SSE: every loop-run event after `seq` (or `Last-Event-ID`), then live
 *   GET  /loops                   registered loops, with the per-kind limit defaults and the ceilings
 *   GET  /loops/<id>/lint         a registered loop's validation issues and admission table
 *   POST /loops/<id>/runs         {"idempotencyKey"?}: start a run (201; 200 with the key's existing run)
 *   GET  /metrics                 Prometheus metrics (text exposition format; docs/observability.md)
 *   GET  /ui/?token=<token>       the Loops pages (catalog, run page): the same token; scripts and
 *                                 styles need none (they hold no data)
 *
 * A state-changing request (POST) from a browser must also come from a page of this server: its
 * `Origin`, when sent, must name the host the request was sent to.
 */
export interface ApiOptions {
  readonly store: LoopStore;
  readonly token: string;
  /** How often the event stream looks for new events. */
  readonly streamPollMs?: number;
  /** The daemon's limit defaults and ceilings, shown by `GET /loops` (default: the built-in ones). */
  readonly limitConfig?: LimitConfig;
  /** The built web app (default: the package's `dist/web`, when built). */
  readonly webAssetsDir?: string;
  /** The address the API listens on: requests naming another host are refused (DNS rebinding). */
  readonly host?: string;
  /** Where started runs go and the clock that stamps them; without them `POST /loops/<id>/runs` is 404. */
  readonly starts?: { readonly home: string; readonly clock: Clock };
  /** Renders `GET /metrics`; without it the route is 404. */
  readonly metrics?: RenderMetrics;
}

const MAX_BODY = 64 * 1024;

export function createApiServer(options: ApiOptions): Server {
  return createServer((request, response) => {
    handle(options, request, response).catch((caught: unknown) => {
      // A stream whose store closed under it has already sent its headers: end it.
      if (response.headersSent) response.destroy();
      else send(response, 500, { error: caught instanceof Error ? caught.message : String(caught) });
    });
  });
}

async function handle(
  options: ApiOptions,
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
  if (url.pathname === "/health") return send(response, 200, { ok: true });
  const webAssets = {
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
  if (serveWebAsset(request, response, webAssets)) return;
  if (!authorized(options.token, request, url))
    return send(response, 401, { error: "missing or wrong token" });
  if (request.method === "POST" && !sameOrigin(request))
    return send(response, 403, { error: "cross-origin requests may not change runs" });
  const { store } = options;
  const parts = url.pathname.split("/").filter((p) => p !== "");
  if (request.method === "GET" && parts[0] === "runs" && parts.length === 1) {
    const loopId = url.searchParams.get("loop");
    return send(response, 200, await store.listRuns({ ...(loopId !== null && { loopId }), limit: 1000 }));
  }
  const runId = parts[1];
  if (parts[0] === "runs" && runId !== undefined) {
    const run = await store.getRun(runId);
    if (run === undefined) return send(response, 404, { error: `no run ${runId}` });
    if (request.method === "GET" && parts.length === 2)
      return send(response, 200, await runDetail(store, run));
    if (request.method === "POST" && parts[2] === "commands") return command(store, runId, request, response);
    if (request.method === "POST" && parts[2] === "notes") return note(store, runId, request, response);
  }
  if (request.method === "GET" && url.pathname === "/metrics" && options.metrics !== undefined) {
    const page = await options.metrics();
    response.writeHead(200, { "content-type": page.contentType }).end(page.body);
    return;
  }
  if (request.method === "GET" && url.pathname === "/events") return stream(options, request, response, url);
  if (request.method === "GET" && url.pathname === "/loops") return send(response, 200, await loops(options));
  if (parts[0] === "loops" && parts[1] !== undefined) return loopAction(options, request, response, parts);
  return send(response, 404, { error: "no such route" });
}

/** `GET /loops/<id>/lint` and `POST /loops/<id>/runs`. */
async function loopAction(
  options: ApiOptions,
  request: IncomingMessage,
  response: ServerResponse,
  parts: readonly string[],
): Promise<void> {
  const loopId = decodeURIComponent(parts[1] ?? "");
  if (request.method === "GET" && parts[2] === "lint" && parts.length === 3) {
    const answer = await lintRegistered(options.store, loopId);
    return send(response, answer.status, answer.body);
  }
  if (
    request.method === "POST" &&
    parts[2] === "runs" &&
    parts.length === 3 &&
    options.starts !== undefined
  ) {
    const form = parseStartForm(await readJson(request));
    if (!form.ok) return send(response, 400, { code: form.code, error: form.error });
    const deps = { store: options.store, limitConfig: options.limitConfig ?? {}, ...options.starts };
    const answer = await startRegistered(deps, loopId, form.form);
    return send(response, answer.status, answer.body);
  }
  return send(response, 404, { error: "no such route" });
}

/** A run with its generations, inbox and, once it ended, its end layers in the six kinds. */
async function runDetail(store: LoopStore, run: LoopRunRecord) {
  const generations = await store.generations(run.id);
  return {
    run,
    generations,
    messages: await store.messages(run.id),
    endLayers: endLayersOf(run, generations.at(-1)),
  };
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

async function loops(options: ApiOptions) {
  const config = options.limitConfig ?? {};
  return {
    loops: await options.store.registeredLoops(),
    defaults: {
      delivery: { ...BUILTIN_DEFAULTS.delivery, ...config.defaults?.delivery },
      watch: { ...BUILTIN_DEFAULTS.watch, ...config.defaults?.watch },
    },
    ceilings: { ...BUILTIN_CEILINGS, ...config.ceilings },
    catalog: catalogEntries(await options.store.listRuns({ limit: 1000 }), Date.now()).map((entry) => ({
      ...entry,
      successText: successText(entry),
    })),
  };
}

function authorized(token: string, request: IncomingMessage, url: URL): boolean {
  const header = request.headers.authorization ?? "";
  const given = header.startsWith("Bearer ") ? header.slice(7) : (url.searchParams.get("token") ?? "");
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function command(
  store: LoopStore,
  runId: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const body = await readJson(request);
  if (body === undefined) return send(response, 400, { error: "the body must be a JSON object" });
  const type = body.type;
  if (typeof type !== "string" || !(COMMAND_TYPES as readonly string[]).includes(type)) {
    return send(response, 400, { error: `type must be one of ${COMMAND_TYPES.join(", ")}` });
  }
  if (body.add !== undefined && (typeof body.add !== "number" || !(body.add > 0))) {
    return send(response, 400, { error: "add must be a positive number (tokens or seconds)" });
  }
  const run = await store.getRun(runId);
  if (run === undefined) return send(response, 404, { error: `no loop run ${runId}` });
  const command = {
    type: type as LoopCommandType,
    by: typeof body.by === "string" ? body.by : "api",
    ...(typeof body.add === "number" && { add: body.add }),
    ...(typeof body.comment === "string" && { comment: body.comment }),
  };
  // Refused now rather than at the run's next boundary, where the caller would never hear of it.
  const refused = refusalNow(run, command);
  if (refused !== undefined) return send(response, 409, { error: `${type} refused: ${refused}` });
  const id = await store.addCommand(runId, command, new Date().toISOString());
  return send(response, 202, { id });
}

async function note(
  store: LoopStore,
  runId: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const body = await readJson(request);
  if (typeof body?.text !== "string" || body.text === "")
    return send(response, 400, { error: "text is required" });
  const by = typeof body.by === "string" ? body.by : "api";
  const run = await store.getRun(runId);
  if (run !== undefined && isTerminalState(run.state))
    return send(response, 409, {
      code: "run-ended",
      error: `note refused: the run ended ${run.state}, so no generation would read it`,
    });
  const id = await store.addMessage({
    runId,
    kind: "operator_note",
    author: by,
    text: body.text,
    createdAt: new Date().toISOString(),
  });
  return send(response, 201, { id });
}

/** Server-sent events: the log after `after`, then new events as they are committed. */
async function stream(
  options: ApiOptions,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  let after = Number(request.headers["last-event-id"] ?? url.searchParams.get("after") ?? 0) || 0;
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  let open = true;
  request.on("close", () => {
    open = false;
  });
  while (open) {
    for (const event of await options.store.events(after, undefined, 500)) {
      response.write(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      after = event.seq;
    }
    await new Promise((resolve) => setTimeout(resolve, options.streamPollMs ?? 250));
  }
  response.end();
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  let text = "";
  for await (const chunk of request) {
    text += String(chunk);
    if (text.length > MAX_BODY) return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}
