import type { Duplex } from "node:stream";
import type { WebSocket } from "ws";

/** Bytes a client's socket may hold unsent before the writer waits for it to drain. */
export const HIGH_WATER_BYTES = 1024 * 1024;
/**
 * The least time between two writes to one client's socket. A frame that follows the last write by
 * more leaves at once; one sent sooner waits for the rest of this interval, with every frame sent
 * meanwhile. On loopback a write costs tens of microseconds (the receiver's TCP work runs in the
 * sender's system call), so a burst of short codons would otherwise spend more on writes per client
 * than on the codons. A person or a script does not notice 8 ms.
 */
export const FLUSH_INTERVAL_MS = 8;

/**
 * Sends text frames to one client. `send` returns nothing while the socket keeps up; once more than
 * `HIGH_WATER_BYTES` wait to be written, it returns a promise that settles when this frame has been
 * handed to the operating system (or the socket closed), so a caller that awaits it (the client's
 * event queue, a history stream) slows down to the client's pace instead of filling memory.
 *
 * Frames sent close together leave in one write: the connection's TCP socket is corked at the first
 * frame and uncorked once the burst's synchronous work and microtasks are done, or, when the last
 * write was less than `FLUSH_INTERVAL_MS` ago, once that interval has passed. A busy run pays at most
 * one system call per client per interval instead of one per frame; a quiet one sends each event at
 * once.
 */
export class SocketWriter {
  readonly #socket: WebSocket;
  readonly #tcp: Duplex | undefined;
  readonly #highWater: number;
  readonly #interval: number;
  #corked = false;
  /** When the socket was last uncorked (monotonic milliseconds). */
  #lastFlush = Number.NEGATIVE_INFINITY;

  constructor(socket: WebSocket, tcp?: Duplex, highWater = HIGH_WATER_BYTES, interval = FLUSH_INTERVAL_MS) {
    this.#socket = socket;
    this.#tcp = tcp;
    this.#highWater = highWater;
    this.#interval = interval;
  }

  get open(): boolean {
    return this.#socket.readyState === this.#socket.OPEN;
  }

  /** Sends a text frame: a string, or its UTF-8 bytes (encoded once for every client). */
  send(text: string | Buffer): Promise<void> | undefined {
    if (!this.open) return undefined;
    this.#cork();
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

  #cork(): void {
    const tcp = this.#tcp;
    if (tcp === undefined || this.#corked) return;
    this.#corked = true;
    tcp.cork();
    const flush = (): void => {
      this.#corked = false;
      this.#lastFlush = performance.now();
      tcp.uncork();
    };
    const wait = this.#lastFlush + this.#interval - performance.now();
    if (wait <= 0) process.nextTick(flush);
    else setTimeout(flush, wait);
  }
}
