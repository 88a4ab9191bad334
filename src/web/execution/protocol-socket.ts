import type { JournaledEvent } from "../../events/index.ts";

/**
 * The page's client of the run server's WebSocket protocol (docs/server.md). It shakes hands without
 * the 50-event preview and with live events in `event.batch` frames, asks `history.sync {afterSeq,
 * batchSize}` for everything after the last event it holds, and hands journaled events on in `seq`
 * order, each once, whether they came from the history stream or live (both may interleave). On a lost connection it reconnects and resumes after its last `seq`,
 * so a restart of the socket (or of the server) loses and duplicates nothing.
 */

export type ClientMode = "readonly" | "readandwrite";

/** A frame that is not a journaled event: `checkpoint.list`, `error`, `info`, `server.ready`, `pong`. */
export interface ReplyFrame {
  readonly type: string;
  readonly data: Record<string, unknown>;
}

export type ConnectionStatus = "connecting" | "syncing" | "live" | "reconnecting";

export interface ProtocolSocketOptions {
  readonly url: string;
  readonly mode: ClientMode;
  readonly onEvent: (event: JournaledEvent) => void;
  readonly onReply: (frame: ReplyFrame) => void;
  readonly onStatus: (status: ConnectionStatus) => void;
}

export interface ProtocolSocket {
  /** Sends a command with a fresh id; false when the socket is not open (the caller says so). */
  send(type: string, data?: Record<string, unknown>): boolean;
  close(): void;
}

const RETRY_MS = [250, 500, 1000, 2000, 4000];
/**
 * Events per `history.batch` (our protocol addition): a browser pays per WebSocket message (about
 * 0.2 ms each in Chromium on a loaded 2-core machine), so 10,000 events come in 20 messages.
 */
const HISTORY_BATCH = 500;

export function openProtocolSocket(options: ProtocolSocketOptions): ProtocolSocket {
  let applied = 0;
  const early = new Map<number, JournaledEvent>();
  let socket: WebSocket | undefined;
  let closed = false;
  let failures = 0;

  const deliver = (event: JournaledEvent): void => {
    if (event.seq <= applied || early.has(event.seq)) return;
    early.set(event.seq, event);
    for (let next = early.get(applied + 1); next !== undefined; next = early.get(applied + 1)) {
      early.delete(next.seq);
      applied = next.seq;
      options.onEvent(next);
    }
  };

  const onMessage = (raw: string): void => {
    const frame = JSON.parse(raw) as { type?: unknown; seq?: unknown; data?: unknown };
    if (typeof frame.seq === "number") {
      deliver(frame as JournaledEvent);
      return;
    }
    const data = (typeof frame.data === "object" && frame.data !== null ? frame.data : {}) as Record<
      string,
      unknown
    >;
    if (frame.type === "handshake.response") {
      failures = 0;
      options.onStatus("syncing");
      const data = { afterSeq: applied, batchSize: HISTORY_BATCH };
      socket?.send(JSON.stringify({ id: crypto.randomUUID(), type: "history.sync", data }));
      return;
    }
    if (frame.type === "event.batch") {
      for (const event of (data.events ?? []) as JournaledEvent[]) deliver(event);
      return;
    }
    if (frame.type === "history.batch") {
      for (const event of (data.events ?? []) as JournaledEvent[]) deliver(event);
      if (data.hasMore === false) options.onStatus("live");
      return;
    }
    options.onReply({ type: String(frame.type), data });
  };

  const connect = (): void => {
    options.onStatus(failures === 0 ? "connecting" : "reconnecting");
    const ws = new WebSocket(options.url);
    socket = ws;
    ws.addEventListener("open", () => {
      // Live events in batches (our protocol addition): one message per server write, not per event.
      const data = { mode: options.mode, sendPreviousEvents: false, batchEvents: true };
      ws.send(JSON.stringify({ type: "handshake", data }));
    });
    ws.addEventListener("message", (message) => {
      if (typeof message.data === "string") onMessage(message.data);
    });
    ws.addEventListener("close", () => {
      if (closed || socket !== ws) return;
      options.onStatus("reconnecting");
      const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)] ?? 4000;
      failures += 1;
      setTimeout(connect, delay);
    });
  };
  connect();

  return {
    send(type, data) {
      if (socket?.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify({ id: crypto.randomUUID(), type, ...(data !== undefined && { data }) }));
      return true;
    },
    close() {
      closed = true;
      socket?.close();
    },
  };
}

/** The WebSocket address of the server that served this page, with the page's token when it has one. */
export function socketUrlOf(location: Location): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const token = new URLSearchParams(location.search).get("token");
  return `${scheme}//${location.host}/${token === null ? "" : `?token=${encodeURIComponent(token)}`}`;
}
