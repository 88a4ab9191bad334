import { randomUUID } from "node:crypto";
import WebSocket from "ws";
import type { JournaledEvent } from "../journal/index.ts";
import type { RunViewSnapshot } from "../journal/run-view.ts";
import type { ClientMode, CommandType } from "./protocol.ts";

/** A frame from the server, sorted: a journaled event (it has a `seq`) or an unjournaled one. */
export type ServerFrame =
  | { readonly kind: "event"; readonly event: JournaledEvent }
  | { readonly kind: "unjournaled"; readonly type: string; readonly data: Record<string, unknown> }
  /** History paging: the run view the events that follow are folded on (absent: from the start). */
  | { readonly kind: "view"; readonly view: RunViewSnapshot | undefined };

export interface ConnectOptions {
  /** `ws://localhost:<port>`. */
  readonly url: string;
  readonly mode: ClientMode;
  readonly sendPreviousEvents?: boolean;
  /**
   * Ask for live events in `event.batch` frames (fewer messages when a run is busy). Listeners see
   * the same frames either way: each event of a batch is handed over as a frame of its own.
   */
  readonly batchEvents?: boolean;
  /** Sent as `Authorization: Bearer` when the server requires one. */
  readonly token?: string;
  /** Gives up connecting after this long (default 10 s). */
  readonly timeoutMs?: number;
}

export interface Handshaken {
  readonly clientId: string;
  readonly mode: ClientMode;
  /** Newest first, as the server sends it. */
  readonly eventHistory: readonly JournaledEvent[];
  readonly totalEvents: number;
}

/** A connected, handshaken client of the protocol. */
export interface ProtocolClient extends Handshaken {
  /** Every frame after the handshake response, in arrival order; returns the unsubscribe function. */
  onFrame(listener: (frame: ServerFrame) => void): () => void;
  /** Sends a command and returns its id (the server never echoes it). */
  send(type: CommandType, data?: Record<string, unknown>): string;
  /** Settles when the socket closes, from either side. */
  readonly closed: Promise<{ readonly code: number; readonly reason: string }>;
  close(): void;
}

/**
 * Connects and shakes hands. Frames that arrive before anyone listens (the `server.ready` right after
 * the handshake, the first live events) are kept and handed to the first listener, so none is lost.
 * Rejects when the connection or the handshake fails (refused upgrade, wrong token, timeout).
 */
export function connectClient(options: ConnectOptions): Promise<ProtocolClient> {
  const socket = new WebSocket(options.url, {
    ...(options.token !== undefined && { headers: { authorization: `Bearer ${options.token}` } }),
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on("close", (code, reason) => resolve({ code, reason: reason.toString("utf8") }));
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`No handshake from ${options.url}`)),
      options.timeoutMs ?? 10_000,
    );
    const early: ServerFrame[] = [];
    const listeners = new Set<(frame: ServerFrame) => void>();
    let handshaken: Handshaken | undefined;
    function fail(error: Error): void {
      clearTimeout(timer);
      socket.terminate();
      reject(error);
    }
    socket.on("error", (error) => {
      if (handshaken === undefined) fail(error);
    });
    socket.on("unexpected-response", (_request, response) => {
      fail(new Error(`The server refused the connection: HTTP ${response.statusCode}`));
    });
    socket.on("open", () => {
      const data = {
        mode: options.mode,
        sendPreviousEvents: options.sendPreviousEvents ?? false,
        ...(options.batchEvents === true && { batchEvents: true }),
      };
      socket.send(JSON.stringify({ type: "handshake", data }));
    });
    socket.on("message", (raw) => {
      const parsed = parseFrame(raw.toString());
      if (parsed === undefined) return;
      if (handshaken === undefined && parsed.type === "handshake.response") {
        clearTimeout(timer);
        handshaken = parsed.data as unknown as Handshaken;
        resolve(client(socket, handshaken, early, listeners, closed));
        return;
      }
      for (const frame of framesOf(parsed)) {
        if (listeners.size === 0) early.push(frame);
        for (const listener of listeners) listener(frame);
      }
    });
  });
}

function client(
  socket: WebSocket,
  handshaken: Handshaken,
  early: ServerFrame[],
  listeners: Set<(frame: ServerFrame) => void>,
  closed: Promise<{ code: number; reason: string }>,
): ProtocolClient {
  return {
    ...handshaken,
    onFrame(listener) {
      listeners.add(listener);
      for (const frame of early.splice(0)) listener(frame);
      return () => listeners.delete(listener);
    },
    send(type, data) {
      const id = randomUUID();
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ id, type, ...(data && { data }) }));
      return id;
    },
    closed,
    close() {
      socket.close(1000, "client done");
    },
  };
}

interface RawFrame {
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly seq?: number;
}

function parseFrame(text: string): RawFrame | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || !("type" in value) || typeof value.type !== "string") {
      return undefined;
    }
    return value as RawFrame;
  } catch {
    return undefined;
  }
}

/** The frames a message carries: an `event.batch` carries each of its events. */
function framesOf(frame: RawFrame): ServerFrame[] {
  const events = frame.type === "event.batch" ? frame.data.events : undefined;
  if (!Array.isArray(events)) return [sortFrame(frame)];
  return events.map((event) => ({ kind: "event", event: event as JournaledEvent }));
}

function sortFrame(frame: RawFrame): ServerFrame {
  if (typeof frame.seq === "number") return { kind: "event", event: frame as unknown as JournaledEvent };
  return { kind: "unjournaled", type: frame.type, data: frame.data ?? {} };
}
