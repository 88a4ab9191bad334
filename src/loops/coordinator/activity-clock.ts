import { inactivityStalled } from "../model/stop-model.ts";

/**
 * The inactivity clock of one generation: which nodes (codons, gates, hooks) are running, and the
 * running time at which one last reached a terminal state. It reads time only through `runningMs`, the
 * run's counted running time, so queued, parked and driver-down time never count.
 */
export class ActivityClock {
  #running = 0;
  #lastProgressMs: number;

  constructor(
    private readonly runningMs: () => number,
    private readonly inactivitySec: number,
  ) {
    this.#lastProgressMs = runningMs();
  }

  /** A node started. */
  started(): void {
    this.#running += 1;
  }

  /** A node reached a terminal state: progress. */
  ended(): void {
    this.#running = Math.max(0, this.#running - 1);
    this.#lastProgressMs = this.runningMs();
  }

  /** Runs `work` as one node. */
  async node<T>(work: () => Promise<T>): Promise<T> {
    this.started();
    try {
      return await work();
    } finally {
      this.ended();
    }
  }

  /** True once no node ran and none ended for `inactivitySec` of running time; never while one runs. */
  stalled(): boolean {
    return inactivityStalled({
      runningMsNow: this.runningMs(),
      runningMsAtLastProgress: this.#lastProgressMs,
      inactivitySec: this.inactivitySec,
      nodeRunning: this.#running > 0,
    });
  }
}
