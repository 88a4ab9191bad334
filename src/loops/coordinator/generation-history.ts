import type { LoopStore } from "../store/loop-store.ts";
import type { GenerationRecord } from "../store/store-records.ts";

/**
 * A run's generations as its driver knows them: read whole when the driver takes the run, then at each
 * boundary only from the last known generation on (the one under way or just ended, and any newer),
 * so the store work per generation stays constant however long the run. This holds because only the
 * lease holder writes generations and it only ever writes the last one (start, end, gates finished
 * after an approval); another driver taking over reads the whole history again.
 */
export class GenerationHistory {
  private known: GenerationRecord[] | null = null;

  constructor(
    private readonly store: LoopStore,
    private readonly runId: string,
  ) {}

  /** The generations in order. The array is the history's own: read it, never change it. */
  async read(): Promise<readonly GenerationRecord[]> {
    if (this.known === null) {
      this.known = await this.store.generations(this.runId);
      return this.known;
    }
    const from = this.known.at(-1)?.number ?? 0;
    const fresh = await this.store.generations(this.runId, from);
    while ((this.known.at(-1)?.number ?? -1) >= from) this.known.pop();
    this.known.push(...fresh);
    return this.known;
  }
}
