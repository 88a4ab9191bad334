import { isTerminalState } from "../events/loop-run-states.ts";
import type { LoopStore } from "../loops/index.ts";
import { foldRun, type LoopFigures, type RunFigures, sumFigures } from "./loop-metrics.ts";

/**
 * Reads the Loops figures for a scrape without reading every generation of every run: a run that has
 * ended never changes again, so its figures are folded once, the first time a scrape sees it ended,
 * and kept. A scrape lists the runs (their records, not their generations), reads the generations of
 * the live runs and of the runs newly ended, and forgets the runs no longer listed (deleted ones).
 */
export class LoopFiguresReader {
  #ended = new Map<string, RunFigures>();

  constructor(
    private readonly store: LoopStore,
    private readonly limit = 10_000,
  ) {}

  async read(): Promise<LoopFigures> {
    const runs = await this.store.listRuns({ limit: this.limit });
    const ended = new Map<string, RunFigures>();
    const figures = await Promise.all(
      runs.map(async (run) => {
        const known = this.#ended.get(run.id);
        if (known !== undefined) {
          ended.set(run.id, known);
          return known;
        }
        const folded = foldRun(run, await this.store.generations(run.id));
        if (isTerminalState(run.state)) ended.set(run.id, folded);
        return folded;
      }),
    );
    this.#ended = ended;
    return sumFigures(figures);
  }
}
