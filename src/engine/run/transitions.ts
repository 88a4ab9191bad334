import type { CodonStatus, TransitionType } from "../../journal/index.ts";
import type { EventSink } from "./event-sink.ts";

/**
 * Emits `state.transition` events. `resultingState` is read from the sink's reduced state, so it always
 * says what the journal says; `runStartCost` lets it report the current run's spend separately.
 */
export class Transitions {
  constructor(
    private readonly sink: EventSink,
    private readonly runId: string,
    private readonly runStartCost: number,
  ) {}

  run(type: Extract<TransitionType, `Run${string}`>, data: Record<string, unknown> = {}): void {
    this.emit(type, undefined, data);
  }

  codon(codonId: string, status: CodonStatus, data: Record<string, unknown> = {}): void {
    this.emit("CodonTransitioned", codonId, { status, ...data });
  }

  private emit(type: TransitionType, codonId: string | undefined, data: Record<string, unknown>): void {
    const state = this.sink.state();
    this.sink.emit("state.transition", {
      transitionType: type,
      runId: this.runId,
      ...(codonId !== undefined && { codonId }),
      transition: { type, data },
      resultingState: {
        currentRunId: type === "RunStarted" ? this.runId : state.currentRunId,
        runCount: state.runs.length + (type === "RunStarted" ? 1 : 0),
        totalCost: state.totals.cost,
        currentRunCost: Math.max(0, state.totals.cost - this.runStartCost),
      },
    });
  }
}
