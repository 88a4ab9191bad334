import type { Duplex } from "node:stream";
import type { WebSocket } from "ws";
import { payloadOf, type WireFrame } from "./wire-frame.ts";
import { WriteClock } from "./write-clock.ts";

/** Bytes a client's socket may hold unsent before the writer waits for it to drain. */
export const HIGH_WATER_BYTES = 1024 * 1024;
/**
 * Sends text frames to one client. `send` returns nothing while the socket keeps up; once more than
 * `HIGH_WATER_BYTES` wait to be written, it returns a promise that settles when this frame has been
 * handed to the operating system (or the socket closed), so a caller that awaits it (the client's
 * event queue, a history stream) slows down to the client's pace instead of filling memory.
 *
 * Frames sent close together leave in one write: the connection's TCP socket is corked at the first
 * frame and uncorked at the next flush of its `WriteClock` (shared by a server's clients): once the
 * burst's synchronous work and microtasks are done, or, when the last flush was less than
 * `FLUSH_INTERVAL_MS` ago, once that interval has passed. A busy run pays at most one system call per
 * client per interval instead of one per frame; a quiet one sends each event at once.
 */
export class SocketWriter {
  readonly #socket: WebSocket;
  readonly #tcp: Duplex | undefined;
  readonly #highWater: number;
  readonly #clock: WriteClock;
  #corked = false;
  /** Set when the client takes its live events in batches: builds one frame from their bytes. */
  #batchFrame: ((events: readonly Buffer[]) => WireFrame) | undefined;
  #pendingEvents: Buffer[] = [];
  #pendingBytes = 0;

  constructor(socket: WebSocket, tcp?: Duplex, highWater = HIGH_WATER_BYTES, clock = new WriteClock()) {
    this.#socket = socket;
    this.#tcp = tcp;
    this.#highWater = highWater;
    this.#clock = clock;
  }

  get open(): boolean {
    return this.#socket.readyState === this.#socket.OPEN;
  }

  /**
   * From now on, the live events sent with `sendEvent` between two writes to the socket leave as one
   * frame, which `frame` builds from their bytes (`event.batch`). A browser pays a fixed cost per
   * message, so a run's thousands of events a second would otherwise outrun a page.
   */
  batchEvents(frame: (events: readonly Buffer[]) => WireFrame): void {
    this.#batchFrame = frame;
  }

  /**
   * Sends one live event (`json`, its bytes; `frame`, the WebSocket frame every client shares): a frame
   * of its own, or, when batching, with the other events of this write interval. The promise has
   * `send`'s meaning: the socket is full, wait for it.
   */
  sendEvent(json: Buffer, frame: WireFrame): Promise<void> | undefined {
    if (!this.open) return undefined;
    if (this.#batchFrame === undefined) {
      void this.#sendPendingEvents();
      this.#cork();
      return this.#writeFrame(frame);
    }
    this.#cork();
    this.#pendingEvents.push(json);
    this.#pendingBytes += json.length;
    if (this.#socket.bufferedAmount + this.#pendingBytes <= this.#highWater) return undefined;
    return this.#sendPendingEvents();
  }

  /** Sends a text frame: a string, or its UTF-8 bytes (encoded once for every client). */
  send(text: string | Buffer): Promise<void> | undefined {
    if (!this.open) return undefined;
    // Events gathered before this frame leave before it: the client sees the server's order.
    void this.#sendPendingEvents();
    this.#cork();
    return this.#write(text);
  }

  /** Hands the events gathered for a batch to the socket now (before a close, say). */
  flushEvents(): Promise<void> | undefined {
    return this.#sendPendingEvents();
  }

  #sendPendingEvents(): Promise<void> | undefined {
    const frame = this.#batchFrame;
    if (frame === undefined || this.#pendingEvents.length === 0) return undefined;
    const events = this.#pendingEvents;
    this.#pendingEvents = [];
    this.#pendingBytes = 0;
    return this.open ? this.#writeFrame(frame(events)) : undefined;
  }

  /**
   * A frame built once for every client, written as it is to the connection's TCP socket (ws writes
   * nothing between two frames of ours: compression is off, so its sender never queues). Without the
   * TCP socket (tests), through ws.
   */
  #writeFrame(frame: WireFrame): Promise<void> | undefined {
    const tcp = this.#tcp;
    if (tcp === undefined) return this.#write(payloadOf(frame));
    if (this.#socket.bufferedAmount + frame.bytes.length <= this.#highWater) {
      tcp.write(frame.bytes);
      return undefined;
    }
    // The callback also runs, with an error, when the socket closes first: either way, go on.
    return new Promise((resolve) => tcp.write(frame.bytes, () => resolve()));
  }

  #write(text: string | Buffer): Promise<void> | undefined {
    const options = { binary: false };
    if (this.#socket.bufferedAmount + text.length <= this.#highWater) {
      this.#socket.send(text, options);
      return undefined;
    }
    return new Promise((resolve) => {
      // The callback also runs, with an error, when the socket closes first: either way, go on.
      this.#socket.send(text, options, () => resolve());
    });
  }

  /** Holds the writes of this burst (or interval) back until the clock's next flush. */
  #cork(): void {
    if (this.#corked) return;
    this.#corked = true;
    this.#tcp?.cork();
    this.#clock.request(this.#flush);
  }

  readonly #flush = (): void => {
    void this.#sendPendingEvents();
    this.#corked = false;
    this.#tcp?.uncork();
  };
}
