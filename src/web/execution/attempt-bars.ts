import type { JournaledEvent } from "../../events/index.ts";

/** One codon attempt on the wall-time axis; `endMs` undefined while it runs. */
export interface AttemptBar {
  readonly codonId: string;
  readonly attempt: number;
  readonly startMs: number;
  endMs: number | undefined;
  /** A codon status word, so the bar takes the status colours: running, completed, failed. */
  status: "running" | "completed" | "failed";
  /** The codon's end reason (completed, error, aborted, interrupted...). */
  end: string | undefined;
}

/** The run's cumulative cost after each attempt, in USD, for the cost-over-time line. */
export interface CostPoint {
  readonly atMs: number;
  readonly usd: number;
}

/**
 * Folds codon starts and ends into attempt bars and cost points, with the journal's timestamps. Pure
 * over events: the page's model calls it for every event it folds.
 */
export class AttemptBars {
  readonly bars: AttemptBar[] = [];
  readonly cost: CostPoint[] = [];
  #usd = 0;

  apply(event: JournaledEvent): void {
    if (event.type === "codon.started") {
      this.bars.push({
        codonId: event.data.codonId,
        attempt: event.data.attempt ?? 1,
        startMs: Date.parse(event.timestamp),
        endMs: undefined,
        status: "running",
        end: undefined,
      });
    } else if (event.type === "codon.completed") {
      const bar = this.bars.findLast((b) => b.codonId === event.data.codonId && b.endMs === undefined);
      const at = Date.parse(event.timestamp);
      this.#usd += event.data.cost;
      this.cost.push({ atMs: at, usd: this.#usd });
      if (bar === undefined) return;
      bar.endMs = at;
      bar.status = event.data.success ? "completed" : "failed";
      bar.end = event.data.endReasons?.codon ?? (event.data.success ? "completed" : "error");
    }
  }
}
