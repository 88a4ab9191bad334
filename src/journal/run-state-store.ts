import type { JournaledEvent } from "../events/events.ts";
import { applyEvent, type RunStateDraft } from "./apply-event.ts";
import { type CodonRecord, initialRunState, type RunState } from "./run-state.ts";

/**
 * The run state kept current in place, for folds over many events: the engine's live state and journal
 * replays. Applying an event costs the same at the ten-thousandth codon as at the first: codon records
 * are found through an id index, and the codon array grows in place instead of being copied.
 *
 * Contract for readers of `state`: it is live and changes as events are applied. The records inside it
 * (codons, loops, runs, totals) are never changed once placed: an update puts a new record in their place,
 * so a record read earlier keeps what it said. The constructor copies the containers of `initial`, which
 * is never changed.
 */
export class RunStateStore implements RunStateDraft {
  readonly state: RunState;
  /** Runtime id to position in `state.codons`; built on the first lookup the last record cannot answer. */
  #index: Map<string, number> | null = null;

  constructor(initial: RunState = initialRunState()) {
    this.state = {
      ...initial,
      runs: [...initial.runs],
      codons: [...initial.codons],
      loops: { ...initial.loops },
    };
  }

  /** Applies one event; events the state already includes (`seq <= lastSeq`) change nothing. */
  apply(event: JournaledEvent): this {
    if (event.seq <= this.state.lastSeq) return this;
    applyEvent(this, event);
    this.state.lastSeq = event.seq;
    this.state.lastEventId = event.id;
    return this;
  }

  /** A copy of the state that later events leave as it is (records are shared: they never change). */
  detached(): RunState {
    return new RunStateStore(this.state).state;
  }

  codon(id: string): CodonRecord | undefined {
    return this.state.codons[this.codonIndex(id)];
  }

  /** The position of the codon's record in execution order; -1 when absent. */
  codonIndex(id: string): number {
    const { codons } = this.state;
    const last = codons.length - 1;
    // The active codon is almost always the newest record: answer it without the index.
    if (codons[last]?.id === id) return last;
    return this.indexed().get(id) ?? -1;
  }

  putCodon(record: CodonRecord): void {
    const index = this.codonIndex(record.id);
    if (index !== -1) {
      this.state.codons[index] = record;
      return;
    }
    this.state.codons.push(record);
    this.#index?.set(record.id, this.state.codons.length - 1);
  }

  keepCodons(count: number): void {
    const { codons } = this.state;
    for (const dropped of codons.splice(count)) this.#index?.delete(dropped.id);
  }

  private indexed(): Map<string, number> {
    if (this.#index === null) this.#index = new Map(this.state.codons.map((codon, at) => [codon.id, at]));
    return this.#index;
  }
}
