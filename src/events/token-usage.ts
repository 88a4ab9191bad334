import type { TokenUsage } from "./payloads-common.ts";

/**
 * Token usage, once: the four counts every harness reports and every event carries (`TokenUsage`, in
 * the payloads), with one adder and one total. Cache writes are `cacheCreationTokens`, cache reads
 * `cacheReadTokens`, everywhere.
 */

export const NO_TOKENS: TokenUsage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
};

export function addTokens(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheCreationTokens: a.cacheCreationTokens + b.cacheCreationTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
  };
}

/** Input, output, cache writes and cache reads together: what a token budget counts. */
export function totalTokens(usage: TokenUsage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheCreationTokens + usage.cacheReadTokens;
}
