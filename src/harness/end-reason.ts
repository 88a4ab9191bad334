import { END_REASONS, type EndReason } from "../events/payloads-common.ts";

export { END_REASONS, type EndReason };

/** End reasons of the layers a harness can see. The codon layer is decided by the engine. */
export interface LayerEndReasons {
  /** The model stream of the last request. */
  readonly stream: EndReason;
  /** The last batch of tool calls (completed when there was none). */
  readonly toolBatch: EndReason;
  /** The turn: the worst reason seen over all its steps, so an early truncation is never hidden. */
  readonly turn: EndReason;
}

/** Orders end reasons from best to worst; a layer keeps the worst it saw. */
export function worstEndReason(a: EndReason, b: EndReason): EndReason {
  return END_REASONS.indexOf(a) >= END_REASONS.indexOf(b) ? a : b;
}

export const ALL_COMPLETED: LayerEndReasons = {
  stream: "completed",
  toolBatch: "completed",
  turn: "completed",
};
