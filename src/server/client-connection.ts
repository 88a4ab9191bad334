import type { Duplex } from "node:stream";
import type { RawData, WebSocket } from "ws";
import type { JournaledEvent } from "../journal/index.ts";
import type { TimerHandle } from "../util/clock.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";
import { ClientFeed } from "./client-feed.ts";
import { gateCommand } from "./command-gate.ts";
import { dispatchCommand } from "./dispatch-command.ts";
import {
  errorData,
  type FrameSource,
  handshakeFrame,
  historyBatchFrames,
  historyPageFrame,
  type PreparedEvent,
  type UnjournaledType,
  unjournaledFrame,
} from "./frames.ts";
import { type HistoryPages, PAGE_EVENTS } from "./history-pages.ts";
import { handshakeHistory, streamJournal } from "./journal-history.ts";
import type { LiveExecution, Notice } from "./live-execution.ts";
import type { LiveFanOut } from "./live-fan-out.ts";
import { type ClientMode, type CommandMessage, type HandshakeMessage, MESSAGES } from "./protocol.ts";
import { readClientMessage } from "./read-client-message.ts";
import { SocketWriter } from "./socket-writer.ts";
import type { WireFrame } from "./wire-frame.ts";
import type { WriteClock } from "./write-clock.ts";

/** What every connection shares with the server. */
export interface ConnectionContext {
  readonly host: LiveExecution;
  readonly frames: FrameSource;
  /** Each event's JSON and WebSocket frame, built once for every client (`createEventPreparer`). */
  readonly prepare: (event: JournaledEvent) => PreparedEvent;
  /** The one bus subscription that hands live events to every client's feed. */
  readonly fanOut: LiveFanOut;
  /** `event.batch` frames, shared by the clients that flush the same events (`sharedBatchFrames`). */
  readonly batchFrame: (events: readonly Buffer[]) => WireFrame;
  /** When the clients' corked sockets are written: one flush for all of them. */
  readonly writeClock: WriteClock;
  /** History paging for every connection of this execution. */
  readonly pages: HistoryPages;
  readonly serverVersion: string;
  readonly port: () => number;
  /** Live events a client may have waiting before it is resynchronised from the journal. */
  readonly maxQueue: number;
  /** Unsent bytes a client's socket may hold before its live events wait in that queue. */
  readonly bufferBytes: number;
  /** Larger text frames get an error reply (the socket's own hard limit closes far larger ones). */
  readonly maxMessageBytes: number;
  readonly onClosed: (connection: ClientConnection) => void;
  /** `--idle-timeout`: close a connection that sent nothing for this long (ms, on the host's clock). */
  readonly idleTimeoutMs?: number;
}

/**
 * One client: nothing but the handshake until it has shaken hands, then the journaled events live
 * (through its own bounded queue on the host's bus), its commands gated and dispatched, and the
 * server's notices. A slow client never slows the run: its queue overflows into a notice, and the
 * events it missed are read back from the journal and sent in order before the live ones.
 */
export class ClientConnection {
  readonly clientId: string;
  readonly #socket: WebSocket;
  readonly #writer: SocketWriter;
  readonly #context: ConnectionContext;
  #mode: ClientMode | undefined;
  #handshake: Promise<void> | undefined;
  #feed: ClientFeed | undefined;
  #releaseWriter: (() => void) | undefined;
  #closed = false;
  #idleTimer: TimerHandle | undefined;
  readonly #streams = new Set<Promise<void>>();

  /** `tcp` is the connection's socket under the WebSocket, corked around bursts of frames. */
  constructor(socket: WebSocket, tcp: Duplex, clientId: string, context: ConnectionContext) {
    this.clientId = clientId;
    this.#socket = socket;
    this.#writer = new SocketWriter(socket, tcp, context.bufferBytes, context.writeClock);
    this.#context = context;
    socket.on("message", (data, isBinary) => this.#onMessage(data, isBinary));
    socket.on("close", () => this.#onClose());
    // Protocol violations (bad frames, oversized messages) close the socket; the close handler cleans up.
    socket.on("error", () => undefined);
    this.#armIdleTimer();
  }

  /** Restarts the idle countdown; a client that stays silent past it is closed (1000, "idle timeout"). */
  #armIdleTimer(): void {
    const ms = this.#context.idleTimeoutMs;
    if (ms === undefined || ms <= 0) return;
    const { clock } = this.#context.host;
    if (this.#idleTimer !== undefined) clock.clearTimeout(this.#idleTimer);
    this.#idleTimer = clock.setTimeout(() => this.close(1000, "idle timeout"), ms);
  }

  get mode(): ClientMode | undefined {
    return this.#mode;
  }

  /** Broadcasts reach handshaken clients only. */
  get handshaken(): boolean {
    return this.#mode !== undefined;
  }

  notify(notice: Notice): void {
    if (this.handshaken)
      void this.#writer.send(unjournaledFrame(this.#context.frames, notice.type, notice.data));
  }

  /** A `history.sync` is being streamed to this client, or live events wait for its socket. */
  get streaming(): boolean {
    return this.#streams.size > 0 || this.#feed?.draining === true;
  }

  /** Settles once the history streams in progress and the waiting live events are with the socket. */
  async idle(): Promise<void> {
    while (this.streaming) await Promise.all([...this.#streams, this.#feed?.idle()]);
    await this.#writer.flushEvents();
  }

  /** Closes the socket (1001 when the server goes away). */
  close(code = 1001, reason = "server shutting down"): void {
    if (
      this.#socket.readyState === this.#socket.OPEN ||
      this.#socket.readyState === this.#socket.CONNECTING
    ) {
      this.#socket.close(code, reason);
    }
    this.#onClose();
  }

  #onMessage(data: RawData, isBinary: boolean): void {
    this.#armIdleTimer();
    if (isBinary) {
      this.#reply("error", errorData("Binary frames are not supported: send JSON text frames"));
      return;
    }
    const size = byteLength(data);
    if (size > this.#context.maxMessageBytes) {
      this.#reply(
        "error",
        errorData(`Message too large: ${size} bytes (the limit is ${this.#context.maxMessageBytes})`),
      );
      return;
    }
    const message = readClientMessage(textOf(data));
    switch (message.kind) {
      case "invalid":
        this.#reply("error", message.reply);
        return;
      case "handshake":
        this.#handshake = this.#shakeHands(message.handshake, this.#handshake);
        return;
      case "command":
        void this.#runCommand(message.command);
        return;
    }
  }

  /**
   * Answers at once: the history comes from the journal when the execution is open (none before), and
   * the subscription starts right after it, so the client sees every later event exactly once.
   * `server.ready` follows the response, as soon as the execution's paths are known.
   */
  async #shakeHands(handshake: HandshakeMessage, earlier: Promise<void> | undefined): Promise<void> {
    await earlier;
    const { host } = this.#context;
    if (this.#closed) return;
    if (host.eventsClosed) {
      this.close(1001, "server shutting down");
      return;
    }
    const journal = host.layout?.eventsPath;
    const history = handshakeHistory(journal, handshake.data.sendPreviousEvents === true);
    const mode = host.viewOnly ? "readonly" : handshake.data.mode;
    this.#setMode(mode);
    if (handshake.data.batchEvents === true) this.#writer.batchEvents(this.#context.batchFrame);
    void this.#writer.send(handshakeFrame({ clientId: this.clientId, mode, ...history }));
    // After the response: a catch-up from the journal is delivered inline, before `add` returns.
    if (this.#feed === undefined) {
      const { prepare, fanOut } = this.#context;
      const feed = new ClientFeed(
        {
          send: (event) => {
            const prepared = prepare(event);
            return this.#writer.sendEvent(prepared.json, prepared.frame);
          },
          readSince: (afterSeq) => host.events.readSince(afterSeq),
        },
        this.#context.maxQueue,
        journal === undefined ? 0 : history.totalEvents,
      );
      this.#feed = feed;
      fanOut.add(feed, journal === undefined ? undefined : history.totalEvents);
    }
    if (host.layout !== undefined) this.#sendReady(host.layout);
    else void host.opened().then((layout) => this.#sendReady(layout));
  }

  #sendReady(layout: ExecutionLayout | undefined): void {
    const { host } = this.#context;
    this.#reply("server.ready", {
      serverVersion: this.#context.serverVersion,
      executionPath: layout?.executionDir ?? "",
      agentRootPath: layout?.agentRoot ?? "",
      dataPath: layout?.dataLink ?? "",
      port: this.#context.port(),
      ...(host.outputDirectory !== undefined && { outputDirectory: host.outputDirectory }),
    });
  }

  #setMode(mode: ClientMode): void {
    this.#mode = mode;
    if (mode === "readandwrite") this.#releaseWriter ??= this.#context.host.attachWriter();
    else {
      this.#releaseWriter?.();
      this.#releaseWriter = undefined;
    }
  }

  async #runCommand(command: CommandMessage): Promise<void> {
    if (this.#handshake === undefined) {
      this.#reply("error", errorData(MESSAGES.handshakeRequired));
      return;
    }
    await this.#handshake;
    const { host } = this.#context;
    const verdict = gateCommand(command.type, {
      mode: this.#mode ?? "readonly",
      shuttingDown: host.phase === "closing" || host.phase === "closed",
      rollingBack: host.phase === "rolling-back",
      ...(host.status.running !== undefined && { codonRunning: host.status.running.id }),
    });
    if (verdict.kind === "drop") return;
    if (verdict.kind === "refuse") {
      this.#reply("error", verdict.reply);
      return;
    }
    try {
      await dispatchCommand(command, {
        host,
        clientId: this.clientId,
        reply: (type, data) => this.#reply(type, data),
        streamHistory: (afterSeq, batchSize) => this.#track(this.#streamHistory(afterSeq, batchSize)),
        pageHistory: (beforeSeq, limit) => this.#track(this.#pageHistory(beforeSeq, limit)),
      });
    } catch (caught) {
      this.#reply(
        "error",
        errorData(MESSAGES.commandFailed(caught instanceof Error ? caught.message : String(caught))),
      );
    }
  }

  #track(stream: Promise<void>): Promise<void> {
    const settled = stream.catch(() => undefined);
    this.#streams.add(settled);
    void settled.then(() => this.#streams.delete(settled));
    return stream;
  }

  /**
   * `history.sync`: `batchSize` events per `history.batch` (one unless the client asks for more; a
   * browser pays per message), oldest first; the last says `hasMore: false`. The journal is read a
   * chunk at a time, at the client's pace; each event goes out as the journal reader gives it, the same
   * form as a live event. A full batch is held until the next event shows it is not the last.
   */
  async #streamHistory(afterSeq: number, batchSize: number): Promise<void> {
    const path = this.#context.host.layout?.eventsPath;
    const batch = historyBatchFrames(this.#context.frames);
    let pending: string[] = [];
    if (path !== undefined) {
      await streamJournal(path, afterSeq, (event) => {
        const full = pending.length === batchSize ? pending : undefined;
        if (full !== undefined) pending = [];
        pending.push(JSON.stringify(event));
        return full === undefined ? undefined : this.#writer.send(batch(full.join(","), true));
      });
    }
    await this.#writer.send(batch(pending.length === 0 ? undefined : pending.join(","), false));
  }

  /**
   * `history.page`: one frame, `{view?, events, hasOlder}`. The events go out as the journal holds
   * them, serialized once (as live events are), the view as JSON.
   */
  async #pageHistory(beforeSeq: number | undefined, limit: number | undefined): Promise<void> {
    const { pages, frames, prepare } = this.#context;
    const page =
      beforeSeq === undefined ? await pages.newest() : pages.before(beforeSeq, limit ?? PAGE_EVENTS);
    await this.#writer.send(historyPageFrame(frames, page, (event) => prepare(event).json));
  }

  #reply(type: UnjournaledType, data: unknown): void {
    void this.#writer.send(unjournaledFrame(this.#context.frames, type, data));
  }

  #onClose(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#idleTimer !== undefined) this.#context.host.clock.clearTimeout(this.#idleTimer);
    if (this.#feed !== undefined) {
      this.#context.fanOut.remove(this.#feed);
      this.#feed.stop();
    }
    this.#releaseWriter?.();
    this.#context.onClosed(this);
  }
}

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  if (Buffer.isBuffer(data)) return data.toString("utf8");
  return Buffer.from(data).toString("utf8");
}

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((sum, part) => sum + part.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}
