/**
 * The least time between two writes to a client's socket. A frame that follows the last write by
 * more leaves at once; one sent sooner waits for the rest of this interval, with every frame sent
 * meanwhile. On loopback a write costs tens of microseconds (the receiver's TCP work runs in the
 * sender's system call), so a burst of short codons would otherwise spend more on writes per client
 * than on the codons. A person or a script does not notice 8 ms.
 */
export const FLUSH_INTERVAL_MS = 8;

/**
 * When corked sockets are written: a writer with frames waiting asks for the next flush, and one flush
 * runs every writer waiting, in the order they asked. The first request after a quiet spell flushes
 * once the current burst's synchronous work and microtasks are done; later ones wait until
 * `interval` has passed since the last flush.
 *
 * A server shares one clock among its clients, so clients that keep up take the same events in the same
 * write: one timer per interval instead of one per client, and an `event.batch` frame built once for
 * all of them. A writer without a shared clock has its own, and the same rule then holds per client.
 */
export class WriteClock {
  readonly #interval: number;
  #waiting: (() => void)[] = [];
  #scheduled = false;
  /** When the last flush ran (monotonic milliseconds). */
  #lastFlush = Number.NEGATIVE_INFINITY;

  constructor(interval = FLUSH_INTERVAL_MS) {
    this.#interval = interval;
  }

  /** Runs `flush` at the next flush (once per request: a writer asks once per cork). */
  request(flush: () => void): void {
    this.#waiting.push(flush);
    if (this.#scheduled) return;
    this.#scheduled = true;
    const wait = this.#lastFlush + this.#interval - performance.now();
    if (wait <= 0) process.nextTick(this.#flushAll);
    else setTimeout(this.#flushAll, wait);
  }

  readonly #flushAll = (): void => {
    this.#scheduled = false;
    this.#lastFlush = performance.now();
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const flush of waiting) flush();
  };
}
