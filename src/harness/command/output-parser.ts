import type { StructuredFailure } from "../classify-failure.ts";
import type { EndReason } from "../end-reason.ts";
import type { HarnessEvent, SessionTotals } from "../harness.ts";

/** What the agent itself reported about how its session ended. */
export type AgentVerdict =
  | { readonly kind: "completed"; readonly resultText?: string }
  | { readonly kind: "max-tokens"; readonly message: string }
  | {
      readonly kind: "error";
      readonly failure: StructuredFailure;
      /** The agent said its context window overflowed. */
      readonly overflow: boolean;
    };

/** Where a parser sends normalized events, and the time it stamps tool calls with. */
export interface ParserSink {
  emit(event: HarnessEvent): void;
  now(): number;
}

/**
 * Reads an agent's stdout, one line at a time, into normalized events and a final verdict. Parsers
 * report only what the agent reported: no usage or cost unless the agent printed it.
 */
export interface OutputParser {
  line(text: string): void;
  /** The session id the agent reported, once it did. */
  sessionId(): string | undefined;
  /** The agent's own verdict; undefined until (or unless) it printed one. */
  verdict(): AgentVerdict | undefined;
  /** False for plain text output: there the exit code decides, and `text()` is the result. */
  readonly reportsResult: boolean;
  /** All assistant text, for output formats without a result message. */
  text(): string;
  totals(): SessionTotals;
  /** End reasons of the model streams seen: the last one and the worst one. */
  streams(): { readonly last: EndReason | undefined; readonly worst: EndReason };
  /** Tool calls that started and have no result yet. */
  pendingTools(): number;
}

export const NO_USAGE: SessionTotals = {
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
  costUsd: null,
};
