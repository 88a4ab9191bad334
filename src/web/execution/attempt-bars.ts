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

/** A running total at a moment: cost in USD, or tokens, after each attempt. */
export interface CumulativePoint {
  readonly atMs: number;
  readonly value: number;
}

/**
 * Folds codon starts and ends into attempt bars, and usage into cost and token points, with the
 * journal's timestamps. Pure
 * over events: the page's model calls it for every event it folds.
 */
export class AttemptBars {
  readonly bars: AttemptBar[] = [];
  /** The run's cumulative cost after each attempt, in USD. */
  readonly cost: CumulativePoint[] = [];
  /** The run's cumulative tokens (input and output, as the journal counted them) after each attempt. */
  readonly tokens: CumulativePoint[] = [];
  #usd = 0;
  #tokens = 0;

  apply(event: JournaledEvent): void {
    if (event.type === "token.usage") {
      this.#tokens += event.data.inputTokens + event.data.outputTokens;
    } else if (event.type === "codon.started") {
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
      this.cost.push({ atMs: at, value: this.#usd });
      this.tokens.push({ atMs: at, value: this.#tokens });
      if (bar === undefined) return;
      bar.endMs = at;
      bar.status = event.data.success ? "completed" : "failed";
      bar.end = event.data.endReasons?.codon ?? (event.data.success ? "completed" : "error");
    }
  }
}
