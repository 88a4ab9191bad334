import type { CodonRecord } from "../journal/index.ts";
import type { CodonResult } from "../runner/index.ts";
import { roundUsd } from "../util/dollars.ts";
import type { LoopStep } from "./loop-hank.ts";
import type { Result, StepError, Usage } from "./workflow-types.ts";

export const NO_USAGE: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0,
};

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: roundUsd(a.costUsd + b.costUsd),
  };
}

export function totalTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

/** Where a runtime id sits in the loop: its step and 1-based iteration. */
export interface StepPlace {
  readonly step: LoopStep;
  readonly iteration: number;
  readonly codonId: string;
}

/** A step that has just completed, as the stop rule sees it (before its record is journaled). */
export function completedResult(place: StepPlace, result: CodonResult | undefined): Result {
  const usage = result?.usage;
  return {
    agent: place.step.agentName,
    output: result?.text ?? "",
    truncated: result?.truncated ?? false,
    usage:
      usage === undefined
        ? NO_USAGE
        : {
            inputTokens: usage.inputTokens,
            outputTokens: usage.outputTokens,
            cacheReadTokens: usage.cacheReadTokens,
            cacheWriteTokens: usage.cacheCreationTokens,
            costUsd: usage.costUsd,
          },
    ok: true,
    iteration: place.iteration,
    step: place.step.index,
    codonId: place.codonId,
  };
}

/**
 * A step as the journal recorded it (the run state's codon record): its latest attempt's outcome and
 * text, and the spend of all its attempts. `timeoutSeconds` tells a step's own deadline apart from the
 * loop's time budget, both of which stop a step with a duration budget record.
 */
export function recordedResult(
  place: StepPlace,
  record: CodonRecord,
  timeoutSeconds: number | undefined,
): Result {
  const error = errorOf(record, timeoutSeconds);
  return {
    agent: place.step.agentName,
    output: record.result?.text ?? "",
    truncated: record.result?.truncated ?? false,
    usage: {
      inputTokens: record.tokens.input,
      outputTokens: record.tokens.output,
      cacheReadTokens: record.tokens.cacheRead,
      cacheWriteTokens: record.tokens.cacheCreation,
      costUsd: roundUsd(record.cost + record.runningCost),
    },
    ok: error === undefined,
    ...(error !== undefined && { error }),
    iteration: place.iteration,
    step: place.step.index,
    codonId: place.codonId,
  };
}

/** Why a recorded step did not end well, or undefined when it did. */
function errorOf(record: CodonRecord, timeoutSeconds: number | undefined): StepError | undefined {
  const exceeded = record.budgetExceeded;
  const codonEnd = record.endReasons?.codon;
  if (record.status === "completed") {
    if (exceeded === null) return undefined;
    return {
      kind: "budget",
      message: `The workflow's budget ran out during this step: ${budgetText(exceeded)}`,
    };
  }
  if (record.status === "skipped") return undefined;
  if (codonEnd === "interrupted") {
    return { kind: "interrupted", message: "The process running this step died before the step ended." };
  }
  if (exceeded !== null && exceeded.currency === "duration" && exceeded.limit === timeoutSeconds) {
    return {
      kind: "timeout",
      message: `The step ran past its deadline (timeoutMs ${timeoutSeconds * 1000}) and was stopped.`,
    };
  }
  if (exceeded !== null) {
    return {
      kind: "budget",
      message: `The workflow's budget ran out during this step: ${budgetText(exceeded)}`,
    };
  }
  if (codonEnd === "aborted") return { kind: "aborted", message: "The step was cancelled." };
  if (record.status === "failed") {
    return { kind: "failed", message: record.failureReason?.message ?? "The step failed." };
  }
  return { kind: "interrupted", message: `The step did not finish (status ${record.status}).` };
}

/**
 * What the step used against what was left of the budget when it started (the limit the runtime gave
 * it), not against the whole budget, which earlier steps shared.
 */
function budgetText(exceeded: NonNullable<CodonRecord["budgetExceeded"]>): string {
  const unit = exceeded.currency === "cost" ? "$" : exceeded.currency === "duration" ? "s" : " tokens";
  const show = (n: number) => (unit === "$" ? `$${roundUsd(n)}` : `${n}${unit}`);
  const used = exceeded.currency === "cost" ? "spent" : exceeded.currency === "duration" ? "ran" : "used";
  return `the step ${used} ${show(exceeded.used)} (${exceeded.currency}) where ${show(exceeded.limit)} of it was left.`;
}
