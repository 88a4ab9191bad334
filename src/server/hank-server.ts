import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { type AccessPolicy, checkUpgrade, isLoopbackHost } from "./access.ts";
import { ClientConnection, type ConnectionContext } from "./client-connection.ts";
import { createEventPreparer, sharedBatchFrames } from "./frames.ts";
import { HistoryPages } from "./history-pages.ts";
import type { LiveExecution } from "./live-execution.ts";
import { LiveFanOut } from "./live-fan-out.ts";
import { RunMetrics } from "./run-metrics.ts";
import { HIGH_WATER_BYTES } from "./socket-writer.ts";
import { defaultWebAssetsDir, serveWebAsset } from "./web-assets.ts";
import { WriteClock } from "./write-clock.ts";

/** Live events a client may have waiting before it is resynchronised from the journal. */
export const DEFAULT_CLIENT_QUEUE = 5_000;
/** Text frames above this get an error reply; commands are a few hundred bytes. */
export const MAX_MESSAGE_BYTES = 64 * 1024;
/** Frames above this close the connection (1009) before they are read whole. */
export const HARD_FRAME_LIMIT_BYTES = 1024 * 1024;
export const DEFAULT_MAX_CLIENTS = 256;
/**
 * How long closing waits for clients to take the last events and the history they asked for before
 * it closes their sockets.
 */
const DRAIN_TIMEOUT_MS = 2_000;

export interface ServerOptions {
  readonly execution: LiveExecution;
  readonly access: AccessPolicy;
  /** Default 0: any free port. */
  readonly port?: number;
  readonly serverVersion: string;
  readonly maxClientQueue?: number;
  /** Unsent bytes a client's socket may hold before its events wait (default `HIGH_WATER_BYTES`). */
  readonly clientBufferBytes?: number;
  readonly maxMessageBytes?: number;
  readonly maxClients?: number;
  /** Close a client connection silent for this many seconds; 0 or absent: never (`--idle-timeout`). */
  readonly clientIdleTimeoutSeconds?: number;
  /** The built web app served under `/ui/` (default: the package's `dist/web`, when built). */
  readonly webAssetsDir?: string;
}

export interface HankServer {
  readonly port: number;
  /** `ws://localhost:<port>` on loopback, `ws://<host>:<port>` otherwise. */
  readonly url: string;
  /** Connected clients, handshaken or not. */
  readonly clientCount: number;
  /** Lets clients take the events already published (bounded wait), then closes every socket. */
  close(): Promise<void>;
}

/**
 * Serves a live execution over WebSocket: the reference protocol on any path of `ws://host:port`, one
 * JSON object per text frame. A plain HTTP request gets a 400 JSON hint, never a crash. Binds before
 * the run starts so the port can go into the execution's lock.
 */
export async function startServer(options: ServerOptions): Promise<HankServer> {
  const { execution, access } = options;
  const clients = new Set<ClientConnection>();
  let boundPort = 0;
  const wss = new WebSocketServer({ noServer: true, maxPayload: HARD_FRAME_LIMIT_BYTES });
  const frames = { now: () => execution.clock.now(), newId: randomUUID };
  const context: ConnectionContext = {
    host: execution,
    frames,
    prepare: createEventPreparer(),
    fanOut: new LiveFanOut(execution.events),
    writeClock: new WriteClock(),
    batchFrame: sharedBatchFrames(frames),
    pages: new HistoryPages({ journalPath: () => execution.layout?.eventsPath, bus: execution.events }),
    serverVersion: options.serverVersion,
    port: () => boundPort,
    maxQueue: options.maxClientQueue ?? DEFAULT_CLIENT_QUEUE,
    bufferBytes: options.clientBufferBytes ?? HIGH_WATER_BYTES,
    maxMessageBytes: options.maxMessageBytes ?? MAX_MESSAGE_BYTES,
    onClosed: (connection) => clients.delete(connection),
    ...(options.clientIdleTimeoutSeconds !== undefined && {
      idleTimeoutMs: options.clientIdleTimeoutSeconds * 1000,
    }),
  };
  const webAssets = {
    dir: options.webAssetsDir ?? defaultWebAssetsDir(),
    face: "execution" as const,
    // The page follows the WebSocket's rules: known host, allowed origin, the token when one is set.
    admitPage: (request: IncomingMessage) => checkUpgrade(request.headers, request.url, access),
  };
  const metrics = new RunMetrics();
  const metricsFeed = execution.events.subscribe(metrics.onEvent, { name: "metrics" });
  const http = createServer((request, response) => {
    if (serveWebAsset(request, response, webAssets)) return;
    if (request.method === "GET" && request.url?.split("?")[0] === "/metrics") {
      serveMetrics(request, response, metrics, access);
      return;
    }
    answerHttp(request, response, urlOf(access.host, boundPort));
  });
  http.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => undefined);
    const verdict = checkUpgrade(request.headers, request.url, access);
    if (!verdict.ok) return refuseUpgrade(socket, verdict.status, verdict.message);
    if (clients.size >= (options.maxClients ?? DEFAULT_MAX_CLIENTS)) {
      return refuseUpgrade(socket, 503, "Too many clients are connected");
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      clients.add(new ClientConnection(ws, socket, randomUUID(), context));
    });
  });
  boundPort = await listen(http, access.host, options.port ?? 0);
  // A viewed execution publishes nothing: its history is folded once, before anyone asks.
  if (execution.viewOnly) context.pages.warm();
  const stopNotices = execution.onNotice((notice) => {
    for (const client of clients) client.notify(notice);
  });
  let closing: Promise<void> | undefined;
  return {
    port: boundPort,
    url: urlOf(access.host, boundPort),
    get clientCount() {
      return clients.size;
    },
    close() {
      metricsFeed.unsubscribe();
      context.pages.stop();
      closing ??= closeAll(execution, clients, wss, http, stopNotices).then(() => context.fanOut.stop());
      return closing;
    },
  };
}

async function closeAll(
  execution: LiveExecution,
  clients: Set<ClientConnection>,
  wss: WebSocketServer,
  http: Server,
  stopNotices: () => void,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
  });
  const drained = (async () => {
    // Every published event reaches every client's socket before it closes: first the bus hands the
    // last events to the clients' feeds, then each client's waiting batch is written (a client with
    // `batchEvents` holds the run's final events, `RunCompleted` among them, until its flush). A
    // client may ask for history meanwhile: go on until none streams.
    await execution.closeEvents();
    do await Promise.all([...clients].map((client) => client.idle()));
    while ([...clients].some((client) => client.streaming));
  })();
  await Promise.race([drained, timeout]);
  clearTimeout(timer);
  stopNotices();
  for (const client of [...clients]) client.close(1001, "server shutting down");
  wss.close();
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
}

function listen(http: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      const where = `${host}:${port}`;
      reject(
        new Error(
          error.code === "EADDRINUSE"
            ? `Port ${port} is already in use on ${host}. Choose another with --port, or --port 0 for any free port.`
            : `The server could not listen on ${where}: ${error.message}`,
        ),
      );
    };
    http.once("error", onError);
    http.listen(port, host, () => {
      http.off("error", onError);
      const address = http.address();
      resolve(typeof address === "object" && address !== null ? address.port : port);
    });
  });
}

function urlOf(host: string, port: number): string {
  if (isLoopbackHost(host)) return `ws://localhost:${port}`;
  return host.includes(":") ? `ws://[${host}]:${port}` : `ws://${host}:${port}`;
}

/** `GET /metrics`: the run's codon counters, under the page's access rules (the token when one is set). */
function serveMetrics(
  request: IncomingMessage,
  response: ServerResponse,
  metrics: RunMetrics,
  access: AccessPolicy,
): void {
  const verdict = checkUpgrade(request.headers, request.url, access);
  if (!verdict.ok) {
    response.writeHead(verdict.status, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: verdict.message }));
    return;
  }
  metrics.render().then(
    (page) => response.writeHead(200, { "content-type": page.contentType }).end(page.body),
    (error: unknown) => response.writeHead(500).end(String(error)),
  );
}

/** Any plain HTTP request: a 400 that says what this port is and how to talk to it. */
function answerHttp(_request: IncomingMessage, response: ServerResponse, websocket: string): void {
  const body = JSON.stringify({
    error: "HTTP API not available",
    message: "This port serves the hankweave WebSocket protocol; plain HTTP requests are not supported.",
    websocket,
    help: 'Connect a WebSocket client and send {"type":"handshake","data":{"mode":"readonly","sendPreviousEvents":true}}. See docs/server.md.',
  });
  response.writeHead(400, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  response.end(body);
}

function refuseUpgrade(socket: Duplex, status: 401 | 403 | 503, message: string): void {
  const body = JSON.stringify({ error: message });
  const reason = { 401: "Unauthorized", 403: "Forbidden", 503: "Service Unavailable" }[status];
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
