import type { EndReason } from "../end-reason.ts";

/**
 * How a model stream ended, from the provider's stop reason: `max_tokens` is a truncation, `refusal`
 * a block, an unknown or missing reason an error (the stream did not end as the API promises).
 */
export function endReasonOfStop(stop: string | null): EndReason {
  switch (stop) {
    case "end_turn":
    case "tool_use":
    case "stop_sequence":
    case "pause_turn":
      return "completed";
    case "max_tokens":
      return "max-tokens";
    case "refusal":
      return "blocked";
    default:
      return "error";
  }
}
