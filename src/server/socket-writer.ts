import type { Duplex } from "node:stream";
import type { WebSocket } from "ws";

/** Bytes a client's socket may hold unsent before the writer waits for it to drain. */
export const HIGH_WATER_BYTES = 1024 * 1024;

/**
 * Sends text frames to one client. `send` returns nothing while the socket keeps up; once more than
 * `HIGH_WATER_BYTES` wait to be written, it returns a promise that settles when this frame has been
 * handed to the operating system (or the socket closed), so a caller that awaits it (the client's
 * event queue, a history stream) slows down to the client's pace instead of filling memory.
 *
 * Frames sent in one burst (the events of one journal write, a history chunk) leave in one write:
 * the connection's TCP socket is corked at the burst's first frame and uncorked once the burst's
 * synchronous work and microtasks are done. A system call per frame per client is what a busy run
 * would otherwise pay.
 */
export class SocketWriter {
  readonly #socket: WebSocket;
  readonly #tcp: Duplex | undefined;
  readonly #highWater: number;
  #corked = false;

  constructor(socket: WebSocket, tcp?: Duplex, highWater = HIGH_WATER_BYTES) {
    this.#socket = socket;
    this.#tcp = tcp;
    this.#highWater = highWater;
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
    process.nextTick(() => {
      this.#corked = false;
      tcp.uncork();
    });
  }
}
