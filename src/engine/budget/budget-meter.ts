import { totalTokens } from "../../events/token-usage.ts";
import type { UsageIncrement } from "../../harness/harness.ts";
import { formatUsd, reachedUsd, roundUsd } from "../../util/dollars.ts";
import type { BudgetExceeded, CodonLimits, DurationLimit, ResolvedLimit } from "./types.ts";

/**
 * The meter of one codon execution: pure state, advanced by usage increments and elapsed-time readings
 * that the driver takes from its clock (on every usage event and on a watchdog tick).
 *
 * A limit trips at `used >= limit`, checked only when that counter moved (so a $0 limit trips on the
 * first cost, not on a free response), in the order cost, output tokens, context tokens, duration.
 * It trips at most once per execution; counting goes on afterwards so that actuals stay true.
 */

export interface MeterState {
  readonly limits: CodonLimits;
  /** Dollars reported so far; a response whose cost is not reported adds nothing. */
  readonly costUsd: number;
  readonly outputTokens: number;
  /** High-water mark of one response's context: its whole prompt (cache included) plus its output. */
  readonly contextTokens: number;
  readonly elapsedSeconds: number;
  readonly exceeded?: BudgetExceeded;
}

export interface MeterReading {
  readonly usage?: UsageIncrement;
  /** Seconds since the execution started. */
  readonly elapsedSeconds?: number;
}

export interface MeterResult {
  readonly state: MeterState;
  /** Set only by the reading that tripped a limit. */
  readonly exceeded?: BudgetExceeded;
}

export function startMeter(limits: CodonLimits): MeterState {
  return { limits, costUsd: 0, outputTokens: 0, contextTokens: 0, elapsedSeconds: 0 };
}

export function meter(state: MeterState, reading: MeterReading): MeterResult {
  const next = advance(state, reading);
  if (state.exceeded !== undefined) return { state: next };
  const exceeded = firstExceeded(state, next, reading);
  return exceeded === undefined ? { state: next } : { state: { ...next, exceeded }, exceeded };
}

function advance(state: MeterState, { usage, elapsedSeconds }: MeterReading): MeterState {
  const turnContext = usage === undefined ? 0 : totalTokens(usage);
  return {
    ...state,
    costUsd: roundUsd(state.costUsd + Math.max(0, usage?.costUsd ?? 0)),
    outputTokens: state.outputTokens + Math.max(0, usage?.outputTokens ?? 0),
    contextTokens: Math.max(state.contextTokens, turnContext),
    elapsedSeconds: Math.max(state.elapsedSeconds, elapsedSeconds ?? 0),
  };
}

function firstExceeded(
  before: MeterState,
  after: MeterState,
  reading: MeterReading,
): BudgetExceeded | undefined {
  const { cost, outputTokens, contextTokens, duration } = after.limits;
  if (cost !== undefined && after.costUsd > before.costUsd && reachedUsd(after.costUsd, cost.limit)) {
    return costExceeded(after.costUsd, cost);
  }
  if (outputTokens !== undefined && after.outputTokens > before.outputTokens) {
    const used = after.outputTokens;
    if (used >= outputTokens.limit)
      return tokensExceeded("outputTokens", "Output tokens", used, outputTokens);
  }
  const turn = reading.usage;
  if (contextTokens !== undefined && turn !== undefined && after.contextTokens >= contextTokens.limit) {
    return tokensExceeded("contextTokens", "Context tokens", after.contextTokens, contextTokens);
  }
  if (
    duration !== undefined &&
    reading.elapsedSeconds !== undefined &&
    after.elapsedSeconds >= duration.limit
  ) {
    return durationExceeded(after.elapsedSeconds, duration);
  }
  return undefined;
}

function costExceeded(used: number, cost: ResolvedLimit): BudgetExceeded {
  const message = `Cost ${formatUsd(used)} exceeded limit ${formatUsd(cost.limit)} [${cost.source}]`;
  return { currency: "cost", limit: cost.limit, used, message };
}

function tokensExceeded(
  currency: "outputTokens" | "contextTokens",
  name: string,
  used: number,
  limit: ResolvedLimit,
): BudgetExceeded {
  return { currency, limit: limit.limit, used, message: `${name} ${used} exceeded limit ${limit.limit}` };
}

/** A loop-bound limit reports the loop's own figures: its whole time against its own budget. */
function durationExceeded(elapsed: number, duration: DurationLimit): BudgetExceeded {
  const { loop } = duration;
  if (loop !== undefined) {
    const used = loop.elapsedBeforeSeconds + elapsed;
    const message = `Loop ${loop.id} duration ${used.toFixed(1)}s exceeded limit ${seconds(loop.limitSeconds)}s`;
    return { currency: "duration", limit: loop.limitSeconds, used, message };
  }
  const message = `Duration ${elapsed.toFixed(1)}s exceeded limit ${seconds(duration.limit)}s`;
  return { currency: "duration", limit: duration.limit, used: elapsed, message };
}

/** Whole seconds as written, fractions to one decimal. */
function seconds(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
