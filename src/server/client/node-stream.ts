import WebSocket from "ws";
import type { ServerFrame } from "../protocol-client.ts";
import {
  type ClientMode,
  openProtocolStream,
  type ProtocolStream,
  type ReplyFrame,
  type SocketLike,
  type StreamStatus,
} from "./protocol-stream.ts";

/** A frame handed on by the stream: a journaled event (in `seq` order) or another server frame. */
export type StreamFrame = ServerFrame;

export interface RunStreamOptions {
  /** `ws://localhost:<port>`. */
  readonly url: string;
  readonly mode: ClientMode;
  /** Sent as `Authorization: Bearer` when the server requires one. */
  readonly token?: string;
  /** See `ProtocolStreamOptions.reconnect`. Default false: the stream ends when the server closes. */
  readonly reconnect?: boolean;
  /** Gives up connecting after this long (default 10 s). */
  readonly timeoutMs?: number;
  /**
   * See `ProtocolStreamOptions.history`. `paged`: a `view` frame, then the newest page's events and the
   * live ones (older pages are not asked for).
   */
  readonly history?: "full" | "paged";
}

/** The protocol stream in Node, with the frames it hands on kept until someone listens. */
export interface RunStream {
  /** Every frame from the handshake on, in order; the frames that came before the listener first. */
  onFrame(listener: (frame: StreamFrame) => void): () => void;
  onStatus(listener: (status: StreamStatus) => void): () => void;
  send(type: string, data?: Record<string, unknown>): boolean;
  readonly ended: ProtocolStream["ended"];
  readonly lastSeq: number;
  close(): void;
}

/**
 * Opens the protocol stream over `ws` and resolves once the server answered the handshake; rejects
 * when the connection or the handshake fails (refused upgrade, wrong token, timeout).
 */
export async function openRunStream(options: RunStreamOptions): Promise<RunStream> {
  const early: StreamFrame[] = [];
  const listeners = new Set<(frame: StreamFrame) => void>();
  const statusListeners = new Set<(status: StreamStatus) => void>();
  const hand = (frame: StreamFrame): void => {
    if (listeners.size === 0) early.push(frame);
    for (const listener of listeners) listener(frame);
  };
  const headers = options.token === undefined ? undefined : { authorization: `Bearer ${options.token}` };
  const stream = openProtocolStream({
    url: options.url,
    mode: options.mode,
    reconnect: options.reconnect ?? false,
    openSocket: (url) =>
      new WebSocket(url, headers === undefined ? {} : { headers }) as unknown as SocketLike,
    onEvent: (event) => hand({ kind: "event", event }),
    ...(options.history !== undefined && { history: options.history }),
    onPage: (page) => {
      if (page.kind === "newest") hand({ kind: "view", view: page.view });
    },
    onReply: (frame: ReplyFrame) => hand({ kind: "unjournaled", type: frame.type, data: frame.data }),
    onStatus: (status) => {
      for (const listener of statusListeners) listener(status);
    },
  });
  await withTimeout(stream, options.timeoutMs ?? 10_000, options.url);
  return {
    onFrame(listener) {
      listeners.add(listener);
      for (const frame of early.splice(0)) listener(frame);
      return () => listeners.delete(listener);
    },
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    send: (type, data) => stream.send(type, data),
    ended: stream.ended,
    get lastSeq() {
      return stream.lastSeq;
    },
    close: () => stream.close(),
  };
}

async function withTimeout(stream: ProtocolStream, ms: number, url: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No handshake from ${url}`)), ms);
  });
  try {
    await Promise.race([stream.handshaken, timeout]);
  } catch (error) {
    stream.close();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
