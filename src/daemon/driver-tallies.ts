import type { DriverNotice } from "../loops/index.ts";

/** One counter's value for one set of labels. */
export interface Tally {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/**
 * What this daemon's drivers noticed since it started: leases taken over (by loop, and whether the
 * driver before was `dead` or its lease `expired`) and runs parked for a human (by loop and reason).
 * Counted in memory by the daemon that did it, as Prometheus counters are: several daemons on one store
 * each count their own (sum them), and a restart starts again from zero (`rate()` and `increase()`
 * handle that). Kept apart from prom-client, which is loaded only on the first scrape.
 */
export class DriverTallies {
  readonly #takeovers = new Map<string, Tally>();
  readonly #escalations = new Map<string, Tally>();

  /** The `DriverDeps.notice` of every driver this daemon starts. */
  readonly notice = (notice: DriverNotice): void => {
    if (notice.kind === "lease-taken-over")
      count(this.#takeovers, { loop: notice.loopId, from: notice.from });
    else count(this.#escalations, { loop: notice.loopId, reason: notice.reason });
  };

  takeovers(): Tally[] {
    return [...this.#takeovers.values()];
  }

  escalations(): Tally[] {
    return [...this.#escalations.values()];
  }
}

function count(tallies: Map<string, Tally>, labels: Record<string, string>): void {
  const key = JSON.stringify(labels);
  tallies.set(key, { labels, value: (tallies.get(key)?.value ?? 0) + 1 });
}
