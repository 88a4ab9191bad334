import type { SessionTotals, UsageIncrement } from "../harness.ts";

/** Sums the usage an agent reported. Cost stays null until the agent reports a figure. */
export interface UsageTotals {
  add(usage: UsageIncrement): void;
  current(): SessionTotals;
}

export function createUsageTotals(): UsageTotals {
  let inputTokens = 0;
  let outputTokens = 0;
  let cacheCreationTokens = 0;
  let cacheReadTokens = 0;
  let costUsd: number | null = null;
  return {
    add(usage) {
      inputTokens += usage.inputTokens;
      outputTokens += usage.outputTokens;
      cacheCreationTokens += usage.cacheCreationTokens;
      cacheReadTokens += usage.cacheReadTokens;
      if (usage.costUsd !== null) costUsd = (costUsd ?? 0) + usage.costUsd;
    },
    current: () => ({ inputTokens, outputTokens, cacheCreationTokens, cacheReadTokens, costUsd }),
  };
}
