import type { UsageIncrement } from "../harness.ts";
import { asRecord, type JsonRecord, numberField } from "./json-fields.ts";

interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
}

const zero = (): TokenCounts => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
});

/**
 * Meters token usage per model response from the stream events. A response's input and cache counts
 * come with `message_start`, its final output count with `message_delta` (which may also repeat the
 * others, and then wins); one increment per response is reported when its `message_delta` arrives.
 * The assistant messages' own `usage` is the `message_start` snapshot (output 1), so it is not used.
 * Lanes (main thread, subagents) are metered separately because their streams may interleave.
 * Cost is left to the runtime's price table (null); the SDK's authoritative total comes with the result.
 */
export class UsageMeter {
  readonly #started = new Map<string, TokenCounts>();
  readonly #totals: TokenCounts = zero();

  onStreamEvent(lane: string, event: JsonRecord): UsageIncrement | undefined {
    if (event.type === "message_start") {
      this.#started.set(lane, readCounts(asRecord(asRecord(event.message).usage), zero()));
      return undefined;
    }
    if (event.type !== "message_delta") return undefined;
    const started = this.#started.get(lane) ?? zero();
    this.#started.delete(lane);
    const counts = readCounts(asRecord(event.usage), { ...started, outputTokens: 0 });
    this.#totals.inputTokens += counts.inputTokens;
    this.#totals.outputTokens += counts.outputTokens;
    this.#totals.cacheCreationTokens += counts.cacheCreationTokens;
    this.#totals.cacheReadTokens += counts.cacheReadTokens;
    return { ...counts, costUsd: null };
  }

  /** The sums of the increments reported so far. */
  totals(): Readonly<TokenCounts> {
    return { ...this.#totals };
  }
}

function readCounts(usage: JsonRecord, fallback: TokenCounts): TokenCounts {
  return {
    inputTokens: numberField(usage, "input_tokens") ?? fallback.inputTokens,
    outputTokens: numberField(usage, "output_tokens") ?? fallback.outputTokens,
    cacheCreationTokens: numberField(usage, "cache_creation_input_tokens") ?? fallback.cacheCreationTokens,
    cacheReadTokens: numberField(usage, "cache_read_input_tokens") ?? fallback.cacheReadTokens,
  };
}
