import { performance } from "node:perf_hooks";
import { setImmediate } from "node:timers/promises";

/** How long a run may keep the event loop busy before a codon boundary lets it turn. */
export const MAX_BUSY_MS = 4;

/**
 * Turns of the event loop at codon boundaries. A codon can run start to end in microtasks (the scripted
 * agent, a journal without async I/O), so without a turn timers, signals and I/O callbacks would wait
 * for the run's end; a turn costs 10–20 µs on this project's CI machine, about a tenth of such a codon,
 * so a boundary turns the loop only when the run has kept it busy for `busyMs` since the last turn.
 * A codon that waits on I/O lets the loop turn by itself, and the boundary after it turns once more.
 *
 * Time here is the process's monotonic clock, not the run's `Clock`: this is scheduling, not run
 * logic, and a test's fake clock must not be able to starve the event loop.
 */
export class EventLoopTurns {
  #lastTurnAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly busyMs = MAX_BUSY_MS) {}

  /** Resolves after a turn of the event loop when it is due, else on the next microtask. */
  async atBoundary(): Promise<void> {
    if (performance.now() - this.#lastTurnAt < this.busyMs) return;
    await setImmediate();
    this.#lastTurnAt = performance.now();
  }
}
