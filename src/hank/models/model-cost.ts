import type { ModelPricing } from "./model-types.ts";

/** Token counts to price; structurally compatible with the harness `UsageIncrement`. */
export interface TokenCounts {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Tokens written to the prompt cache (priced at `cacheWrite`). */
  readonly cacheCreationTokens?: number;
  /** Tokens read from the prompt cache (priced at `cacheRead`). */
  readonly cacheReadTokens?: number;
}

const PER_MILLION = 1_000_000;

/** Dollars for the given token counts; null when the model has no pricing data. */
export function modelCostUsd(pricing: ModelPricing, usage: TokenCounts): number;
export function modelCostUsd(pricing: ModelPricing | null, usage: TokenCounts): number | null;
export function modelCostUsd(pricing: ModelPricing | null, usage: TokenCounts): number | null {
  if (pricing === null) return null;
  const dollarsPerMillion =
    usage.inputTokens * pricing.input +
    usage.outputTokens * pricing.output +
    (usage.cacheCreationTokens ?? 0) * pricing.cacheWrite +
    (usage.cacheReadTokens ?? 0) * pricing.cacheRead;
  return dollarsPerMillion / PER_MILLION;
}
