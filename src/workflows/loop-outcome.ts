import type { DataOf, JournaledEvent } from "../events/index.ts";
import type { RunOutcome } from "../events/run-outcome.ts";
import type { RunState } from "../journal/index.ts";
import { parseRuntimeId } from "../util/runtime-id.ts";
import type { LoopHank } from "./loop-hank.ts";
import type { LoopEndCause, LoopResult } from "./loop-options.ts";
import { TOKEN_BUDGET_CAUSE, UNTIL_CAUSE } from "./step-relay.ts";
import { addUsage, NO_USAGE, recordedResult } from "./step-result.ts";
import type { Result, StepError } from "./workflow-types.ts";

/** How the run behind a loop ended, as the composition saw it. */
export type LoopRunEnding =
  | { readonly kind: "refused"; readonly message: string }
  | {
      readonly kind: "ran";
      /** Absent when the execution had nothing left to do (a finished durable loop called again). */
      readonly outcome?: RunOutcome;
      readonly message: string;
      readonly state: RunState;
      /** The loop's final `loop.iteration.completed`, when the journal has one. */
      readonly finalReport?: DataOf<"loop.iteration.completed">;
    };

export interface OutcomeInput {
  readonly loop: LoopHank;
  readonly ending: LoopRunEnding;
  readonly timeoutMs?: number;
  readonly hasUntil: boolean;
  /** The message of an `until` that threw. */
  readonly untilError: () => string | undefined;
  /** Asks `until` about a last step the runtime's iteration limit kept from the stop rule. */
  readonly judgeLast: (result: Result) => Promise<boolean>;
  readonly workspace: string;
  readonly journal?: string;
}

/** Every step the run state recorded, in execution order. */
export function stepResults(loop: LoopHank, state: RunState, timeoutMs: number | undefined): Result[] {
  const timeoutSeconds = timeoutMs === undefined ? undefined : timeoutMs / 1000;
  const results: Result[] = [];
  for (const record of state.codons) {
    const { configId, iteration } = parseRuntimeId(record.id);
    const step = loop.byConfigId.get(configId);
    if (step === undefined || iteration === undefined || record.attempts === 0) continue;
    results.push(
      recordedResult({ step, iteration: iteration + 1, codonId: record.id }, record, timeoutSeconds),
    );
  }
  return results;
}

/**
 * The loop's result from the journal's view of its run. Whatever ended the run, the steps are those
 * the journal recorded, so a durable loop called again reports every step of every call.
 */
export async function loopOutcome(input: OutcomeInput): Promise<LoopResult> {
  const { ending } = input;
  if (ending.kind === "refused") {
    return assemble(input, [], failedWith({ kind: "refused", message: ending.message }));
  }
  const steps = stepResults(input.loop, ending.state, input.timeoutMs);
  return assemble(input, steps, await judge(input, ending, steps.at(-1)));
}

interface Judgement {
  readonly ok: boolean;
  readonly endCause: LoopEndCause;
  readonly converged: boolean;
  readonly error?: StepError;
}

const ended = (endCause: LoopEndCause, converged: boolean): Judgement => ({ ok: true, endCause, converged });

function failedWith(error: StepError): Judgement {
  return { ok: false, endCause: causeOfFailure(error), converged: false, error };
}

/** Why the loop ended: a failure first, then the journaled end cause, then `until` on the last step. */
async function judge(
  input: OutcomeInput,
  ending: Extract<LoopRunEnding, { kind: "ran" }>,
  last: Result | undefined,
): Promise<Judgement> {
  const failure = untilFailure(input) ?? failureOf(ending, last);
  if (failure !== undefined) return failedWith(failure);
  const cause = ending.finalReport?.endCause;
  if (cause === UNTIL_CAUSE) return ended("until", true);
  if (cause === TOKEN_BUDGET_CAUSE || cause === "budget") return ended("budget", false);
  // The loop ran to its cap: `until` judges the last iteration here; without `until`, running every
  // iteration is the goal, so it counts as converged.
  if (last === undefined) return ended("max-iterations", false);
  if (!input.hasUntil) return ended("max-iterations", true);
  const converged = await input.judgeLast(last);
  const thrown = untilFailure(input);
  if (thrown !== undefined) return failedWith(thrown);
  return ended(converged ? "until" : "max-iterations", converged);
}

function untilFailure(input: OutcomeInput): StepError | undefined {
  const message = input.untilError();
  return message === undefined ? undefined : { kind: "until", message: `until threw: ${message}` };
}

/** The failure that ended the run: the last step's error, or the run's own when no step carries one. */
function failureOf(
  ending: Extract<LoopRunEnding, { kind: "ran" }>,
  last: Result | undefined,
): StepError | undefined {
  if (last?.error !== undefined && last.error.kind !== "budget") return last.error;
  if (ending.outcome === "aborted") return { kind: "aborted", message: ending.message };
  if (ending.outcome === "failed" || ending.outcome === "interrupted") {
    return last?.error ?? { kind: "failed", message: ending.message };
  }
  return last?.error;
}

function causeOfFailure(error: StepError): LoopEndCause {
  if (error.kind === "aborted") return "aborted";
  if (error.kind === "budget") return "budget";
  if (error.kind === "refused") return "refused";
  return "failed";
}

function assemble(input: OutcomeInput, steps: readonly Result[], verdict: Judgement): LoopResult {
  const { error } = verdict;
  const last = steps.at(-1);
  return {
    ok: verdict.ok,
    agent: last?.agent ?? input.loop.steps[0]?.agentName ?? "",
    output: last?.output ?? "",
    ...(error !== undefined && { error }),
    steps,
    usage: steps.map((step) => step.usage).reduce(addUsage, NO_USAGE),
    workspace: input.workspace,
    ...(input.journal !== undefined && { journal: input.journal }),
    iterations: last?.iteration ?? 0,
    converged: verdict.converged,
    endCause: verdict.endCause,
  };
}

/** The loop's final report among `events` (the last `loop.iteration.completed` with `isFinal`). */
export function finalLoopReport(
  events: readonly JournaledEvent[],
): DataOf<"loop.iteration.completed"> | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (event?.type === "loop.iteration.completed" && event.data.isFinal) return event.data;
  }
  return undefined;
}
