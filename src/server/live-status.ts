import type { JournaledEvent } from "../journal/index.ts";

/** What the server needs to know about a live run to answer commands, read off its events. */
export interface LiveStatus {
  /** A run has started (`RunStarted`) and not ended. */
  readonly runLive: boolean;
  /** The codon whose attempt started and has not completed. */
  readonly codonRunning: string | undefined;
  /** The run announced `server.idle` (paused, or parked on a failure) and has not moved since. */
  readonly parked: boolean;
}

export const INITIAL_STATUS: LiveStatus = { runLive: false, codonRunning: undefined, parked: false };

/** The status after one journaled event. Pure. */
export function nextStatus(status: LiveStatus, event: JournaledEvent): LiveStatus {
  switch (event.type) {
    case "state.transition":
      switch (event.data.transitionType) {
        case "RunStarted":
          return { runLive: true, codonRunning: undefined, parked: false };
        case "RunCompleted":
        case "RunFailed":
        case "RunCrashed":
          return INITIAL_STATUS;
        default:
          return status;
      }
    case "codon.started":
      return { ...status, codonRunning: event.data.codonId, parked: false };
    case "codon.completed":
      return status.codonRunning === event.data.codonId ? { ...status, codonRunning: undefined } : status;
    case "server.idle":
      return status.runLive ? { ...status, parked: true } : status;
    default:
      return status;
  }
}
