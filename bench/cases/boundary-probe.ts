import { performance } from "node:perf_hooks";
import type { JournaledEvent } from "../../src/journal/index.ts";
import type { SplitTimer } from "./split-timer.ts";

/** What a run looked like at each codon boundary (each `codon.completed`). */
export interface BoundaryProbe {
  /** Milliseconds from the previous boundary (or the run start) to each boundary. */
  readonly boundaries: number[];
  /** Checkpoint milliseconds spent in each codon. */
  readonly checkpointPerCodon: number[];
  /** RSS in MB, sampled every `rssEvery` codons. */
  readonly rssMb: number[];
  start(at: number): void;
  /** The startRun hook ended after `ms`; git processes so far belong to it. */
  onStartRun(ms: number): void;
  startRunMs(): number;
  startRunGitSpawns(): number;
  listener(event: JournaledEvent): void;
}

export function createBoundaryProbe(
  timer: SplitTimer,
  rssEvery: number,
  gitSpawns: () => number,
): BoundaryProbe {
  const boundaries: number[] = [];
  const checkpointPerCodon: number[] = [];
  const rssMb: number[] = [];
  let last = 0;
  let lastCheckpoint = 0;
  let startRun = 0;
  let startRunSpawns = 0;
  return {
    boundaries,
    checkpointPerCodon,
    rssMb,
    start(at) {
      last = at;
    },
    onStartRun(ms) {
      startRun = ms;
      startRunSpawns = gitSpawns();
      lastCheckpoint = timer.totals().checkpoint;
    },
    startRunMs: () => startRun,
    startRunGitSpawns: () => startRunSpawns,
    listener(event) {
      if (event.type !== "codon.completed") return;
      const now = performance.now();
      boundaries.push(now - last);
      last = now;
      const checkpoint = timer.totals().checkpoint;
      checkpointPerCodon.push(checkpoint - lastCheckpoint);
      lastCheckpoint = checkpoint;
      if (rssEvery > 0 && boundaries.length % rssEvery === 0) rssMb.push(process.memoryUsage.rss() / 2 ** 20);
    },
  };
}
