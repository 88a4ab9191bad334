import type { JournaledEvent } from "../../events/events.ts";
import type { RunViewSnapshot } from "../../journal/run-view.ts";

/**
 * The one client of the run server's WebSocket protocol (docs/server.md), for Node and the browser:
 * the TUI, `--attach` and the web page all read a run through it. It shakes hands (live events in
 * `event.batch` frames, no preview), asks `history.sync {afterSeq}` for everything after the last
 * event it holds, and hands journaled events on in `seq` order, each exactly once, whether they came
 * from the history stream or live (the two interleave). A hole in the sequence (a live event ahead of
 * the history) is filled by asking for the history after the last event handed on. With `reconnect`,
 * a lost connection is opened again with back-off and resumes after the last `seq`, so a restart of
 * the socket or of the server loses and duplicates nothing.
 *
 * With `history: "paged"` the first connection asks for the newest page instead (`history.page`): the
 * run view just before its events goes to `onPage`, then its events and the live ones go on in order,
 * and `loadOlder` asks for the page before the oldest event received (to `onPage`, not `onEvent`). A
 * long run is shown without receiving or folding its whole journal.
 *
 * Browser-safe: the socket comes from `openSocket` (the browser's `WebSocket`, or `ws` in Node).
 */

export type ClientMode = "readonly" | "readandwrite";

/** The part of the WebSocket API the client uses; the browser's `WebSocket` and `ws` both have it. */
export interface SocketLike {
  readonly readyState: number;
  send(text: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open", listener: () => void): void;
  addEventListener(type: "message", listener: (message: { readonly data: unknown }) => void): void;
  addEventListener(
    type: "close",
    listener: (event: { readonly code: number; readonly reason: string }) => void,
  ): void;
  addEventListener(type: "error", listener: (event: { readonly message?: string }) => void): void;
}

/** A frame that is not a journaled event: `checkpoint.list`, `error`, `info`, `server.ready`, `pong`. */
export interface ReplyFrame {
  readonly type: string;
  readonly data: Record<string, unknown>;
}

export type StreamStatus = "connecting" | "syncing" | "live" | "reconnecting" | "closed";

/** A page of history (`history: "paged"`). */
export type HistoryPageOf =
  | {
      /** The newest page: fold its events (they follow through `onEvent`) on `view`. */
      readonly kind: "newest";
      /** The run view just before the page; undefined when the page starts at the first event. */
      readonly view: RunViewSnapshot | undefined;
      readonly hasOlder: boolean;
    }
  | {
      /** An older page asked for with `loadOlder`: events before those already received, oldest first. */
      readonly kind: "older";
      readonly events: readonly JournaledEvent[];
      readonly hasOlder: boolean;
    };

export interface ProtocolStreamOptions {
  readonly url: string;
  readonly mode: ClientMode;
  readonly openSocket: (url: string) => SocketLike;
  readonly onEvent: (event: JournaledEvent) => void;
  readonly onReply?: (frame: ReplyFrame) => void;
  readonly onStatus?: (status: StreamStatus) => void;
  /** Open the connection again after it was lost (back-off 250 ms to 4 s). False: the first close ends it. */
  readonly reconnect: boolean;
  /** Events per `history.batch`. Default 500: a browser pays per message, so 10,000 events take 20. */
  readonly historyBatch?: number;
  /** Ids of the commands sent. Default `crypto.randomUUID`. */
  readonly newId?: () => string;
  /** `full` (default): the whole history, then live. `paged`: the newest page, then live (see above). */
  readonly history?: "full" | "paged";
  /** The pages of a `paged` stream. */
  readonly onPage?: (page: HistoryPageOf) => void;
}

export interface ProtocolStream {
  /** Settles once the first handshake was answered; rejects when the connection ended before it. */
  readonly handshaken: Promise<void>;
  /** Settles when the stream ended: closed by `close()`, or by the server without `reconnect`. */
  readonly ended: Promise<{ readonly code: number; readonly reason: string }>;
  /** The `seq` of the last event handed on. */
  readonly lastSeq: number;
  /** Sends a command with a fresh id; false when the socket is not open (the caller says so). */
  send(type: string, data?: Record<string, unknown>): boolean;
  /** Asks for the page before the oldest event received (`paged`); false when none is to be had. */
  loadOlder(): boolean;
  close(): void;
}

const RETRY_MS = [250, 500, 1000, 2000, 4000];
const OPEN = 1;

export function openProtocolStream(options: ProtocolStreamOptions): ProtocolStream {
  const order = new SeqOrder(options.onEvent);
  const newId = options.newId ?? (() => crypto.randomUUID());
  const batchSize = options.historyBatch ?? 500;
  let socket: SocketLike | undefined;
  let closedByUs = false;
  let failures = 0;
  let syncing = false;
  let status: StreamStatus = "connecting";
  let handshook = false;
  let settleHandshake: { resolve: () => void; reject: (error: Error) => void } | undefined;
  let settleEnd: (end: { code: number; reason: string }) => void = () => undefined;
  const handshaken = new Promise<void>((resolve, reject) => {
    settleHandshake = { resolve, reject };
  });
  const ended = new Promise<{ code: number; reason: string }>((resolve) => {
    settleEnd = resolve;
  });
  handshaken.catch(() => undefined);

  const setStatus = (next: StreamStatus): void => {
    if (status === next) return;
    status = next;
    options.onStatus?.(next);
  };
  const sendFrame = (type: string, data?: Record<string, unknown>): boolean => {
    if (socket?.readyState !== OPEN) return false;
    socket.send(JSON.stringify({ id: newId(), type, ...(data !== undefined && { data }) }));
    return true;
  };
  const paged = options.history === "paged";
  /** The oldest seq received (paged): older pages are asked for before it; 1 when none is left. */
  let oldest = 0;
  let olderPending = false;
  const syncHistory = (): void => {
    syncing = true;
    setStatus("syncing");
    if (paged && order.applied === 0) {
      // Live events wait for the newest page (the order is held until it comes): the run may journal
      // its first events between the handshake and the page, and handing those on before the page's
      // view would fold them twice, or, the page then taken for an older one, never go live.
      order.hold();
      sendFrame("history.page", {});
    } else sendFrame("history.sync", { afterSeq: order.applied, batchSize });
  };
  const onPage = (data: Record<string, unknown>): void => {
    const events = eventsOf(data);
    const hasOlder = data.hasOlder === true;
    // Held: this is the newest page, asked for above; otherwise an older one (`loadOlder`).
    if (!order.holding) {
      olderPending = false;
      const first = events[0]?.seq;
      if (first !== undefined) oldest = first;
      if (!hasOlder) oldest = 1;
      options.onPage?.({ kind: "older", events, hasOlder });
      return;
    }
    const view = isSnapshot(data.view) ? data.view : undefined;
    oldest = hasOlder ? (events[0]?.seq ?? (view?.seq ?? 0) + 1) : 1;
    options.onPage?.({ kind: "newest", view, hasOlder });
    order.skipTo(view?.seq ?? 0);
    for (const event of events) order.take(event);
    order.release();
    syncing = false;
    if (order.hasHole) syncHistory();
    else setStatus("live");
  };
  const takeEvent = (event: JournaledEvent): void => {
    order.take(event);
    // A live event ahead of what we hold, with no history on its way: ask for what lies between.
    if (!syncing && order.hasHole) syncHistory();
  };

  const onHistory = (data: Record<string, unknown>): void => {
    for (const event of eventsOf(data)) order.take(event);
    if (data.hasMore !== false) return;
    syncing = false;
    if (order.hasHole) syncHistory();
    else setStatus("live");
  };

  const onFrame = (frame: RawFrame): void => {
    if (typeof frame.seq === "number") {
      takeEvent(frame as unknown as JournaledEvent);
      return;
    }
    const data = frame.data;
    if (frame.type === "handshake.response") {
      // The mode the server granted (a viewed execution makes every client read-only) goes on too.
      options.onReply?.({ type: frame.type, data });
      failures = 0;
      if (!handshook) settleHandshake?.resolve();
      handshook = true;
      syncHistory();
    } else if (frame.type === "event.batch") {
      for (const event of eventsOf(data)) takeEvent(event);
    } else if (frame.type === "history.batch") {
      onHistory(data);
    } else if (frame.type === "history.page") {
      onPage(data);
    } else {
      options.onReply?.({ type: frame.type, data });
    }
  };

  const end = (code: number, reason: string): void => {
    setStatus("closed");
    if (!handshook)
      settleHandshake?.reject(new Error(reason === "" ? `connection closed (${code})` : reason));
    settleEnd({ code, reason });
  };

  const connect = (): void => {
    setStatus(failures === 0 ? "connecting" : "reconnecting");
    let lastError = "";
    const ws = options.openSocket(options.url);
    socket = ws;
    ws.addEventListener("open", () => {
      const data = { mode: options.mode, sendPreviousEvents: false, batchEvents: true };
      ws.send(JSON.stringify({ type: "handshake", data }));
    });
    ws.addEventListener("message", (message) => {
      const frame = typeof message.data === "string" ? parseFrame(message.data) : undefined;
      if (frame !== undefined) onFrame(frame);
    });
    ws.addEventListener("error", (event) => {
      lastError = event.message ?? lastError;
    });
    ws.addEventListener("close", (event) => {
      if (socket !== ws) return;
      syncing = false;
      if (closedByUs || !options.reconnect) {
        end(event.code, event.reason || lastError);
        return;
      }
      setStatus("reconnecting");
      const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)] ?? 4000;
      failures += 1;
      setTimeout(connect, delay);
    });
  };
  connect();

  return {
    handshaken,
    ended,
    get lastSeq() {
      return order.applied;
    },
    send: sendFrame,
    loadOlder() {
      if (!paged || olderPending || order.holding || oldest <= 1) return false;
      olderPending = sendFrame("history.page", { beforeSeq: oldest, limit: batchSize });
      return olderPending;
    },
    close() {
      closedByUs = true;
      if (socket === undefined || socket.readyState > OPEN) end(1000, "client done");
      else socket.close(1000, "client done");
    },
  };
}

/** Hands events on in `seq` order, each once, holding those that come early. */
class SeqOrder {
  applied = 0;
  readonly #early = new Map<number, JournaledEvent>();
  #holding = false;

  /** Whether events wait for `release` (see `hold`). */
  get holding(): boolean {
    return this.#holding;
  }
  readonly #deliver: (event: JournaledEvent) => void;

  constructor(deliver: (event: JournaledEvent) => void) {
    this.#deliver = deliver;
  }

  get hasHole(): boolean {
    return this.#early.size > 0;
  }

  /**
   * Hands nothing on until `release`: events taken meanwhile wait (a paged stream's live events until
   * the newest page has set where the fold starts).
   */
  hold(): void {
    this.#holding = true;
  }

  release(): void {
    this.#holding = false;
    this.#drain();
  }

  /** Takes everything up to `seq` as handed on (a page's view holds it), then what follows it. */
  skipTo(seq: number): void {
    if (seq <= this.applied) return;
    this.applied = seq;
    for (const early of this.#early.keys()) if (early <= seq) this.#early.delete(early);
    this.#drain();
  }

  take(event: JournaledEvent): void {
    if (event.seq <= this.applied || this.#early.has(event.seq)) return;
    this.#early.set(event.seq, event);
    this.#drain();
  }

  #drain(): void {
    if (this.#holding) return;
    for (
      let next = this.#early.get(this.applied + 1);
      next !== undefined;
      next = this.#early.get(this.applied + 1)
    ) {
      this.#early.delete(next.seq);
      this.applied = next.seq;
      this.#deliver(next);
    }
  }
}

interface RawFrame {
  readonly type: string;
  readonly seq?: number;
  readonly data: Record<string, unknown>;
}

function parseFrame(text: string): RawFrame | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || !("type" in value) || typeof value.type !== "string")
      return undefined;
    const data = "data" in value && typeof value.data === "object" && value.data !== null ? value.data : {};
    return { ...(value as RawFrame), data: data as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

/** The server sends the view as `RunViewFold.capture` made it; its shape is checked this far. */
function isSnapshot(value: unknown): value is RunViewSnapshot {
  return (
    typeof value === "object" &&
    value !== null &&
    "seq" in value &&
    typeof value.seq === "number" &&
    "state" in value &&
    typeof value.state === "object"
  );
}

function eventsOf(data: Record<string, unknown>): JournaledEvent[] {
  return Array.isArray(data.events) ? (data.events as JournaledEvent[]) : [];
}
