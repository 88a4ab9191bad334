import type { JournaledEvent } from "../events/index.ts";
import type { RunState } from "../journal/index.ts";
import type { EventListener, LoopStopPredicate, LoopStopVerdict } from "../runner/index.ts";
import { parseRuntimeId, runtimeIdOf } from "../util/runtime-id.ts";
import type { LoopFiles } from "./loop-files.ts";
import type { LoopHank, LoopStep } from "./loop-hank.ts";
import type { CheckedLoopOptions, UntilPredicate } from "./loop-options.ts";
import { completedResult } from "./step-result.ts";
import type { Result } from "./workflow-types.ts";

/** The loop-end causes the relay journals (`loop.iteration.completed` `endCause`). */
export const UNTIL_CAUSE = "until";
export const TOKEN_BUDGET_CAUSE = "token-budget";

export interface StepRelayInput {
  readonly loop: LoopHank;
  readonly files: LoopFiles;
  /** The first step's input in the first iteration. */
  readonly input: string;
  readonly until?: UntilPredicate;
  readonly tokenBudget?: number;
}

/**
 * What moves a loop from one step to the next, plugged into the runtime twice:
 *
 * - as an inline event listener: when a step is about to start (its `starting` transition, journaled
 *   just before the runtime reads the step's prompt file), it writes the step's input there: the loop's
 *   input for the very first step, else the output of the step before it (the last step's for the first
 *   step of an iteration) as the journal recorded it. The input is thus always derived from journaled
 *   facts at the moment it is read, which is what makes a resumed loop exact: a step interrupted by a
 *   crash starts again on the same input, and no crash can leave a file half-way between two steps.
 * - as a loop stop rule, asked after every step whose iteration may carry on: at the last step of an
 *   iteration it asks `until` (cause `until` when it says yes), and it ends the loop (cause
 *   `token-budget`) once the run's tokens reach the token budget.
 *
 * On the loop's last iteration the runtime's iteration limit ends the loop first and the rule is not
 * asked; the caller judges that iteration with `judgeLast` afterwards.
 */
export class StepRelay {
  readonly #input: StepRelayInput;
  #state: RunState | undefined;
  /** Final texts of completed steps by runtime id, seeded from the run state of earlier runs. */
  #outputs: Map<string, string> | undefined;
  #untilError: string | undefined;

  constructor(input: StepRelayInput) {
    this.#input = input;
  }

  readonly listener: EventListener = (event: JournaledEvent, state: RunState) => {
    this.#state = state;
    const outputs = this.#outputsFrom(state);
    if (event.type === "codon.completed") {
      if (event.data.success) outputs.set(event.data.codonId, event.data.result?.text ?? "");
      return;
    }
    if (event.type !== "state.transition" || event.data.transitionType !== "CodonTransitioned") return;
    if (event.data.transition.data.status !== "starting" || event.data.codonId === undefined) return;
    const { configId, iteration } = parseRuntimeId(event.data.codonId);
    const step = this.#input.loop.byConfigId.get(configId);
    if (step === undefined || iteration === undefined) return;
    this.#input.files.writeInput(step, this.#inputOf(step, iteration, outputs));
  };

  /** The message of an `until` that threw, if one did. */
  get untilError(): string | undefined {
    return this.#untilError;
  }

  readonly rule: LoopStopPredicate = async (context) => {
    const step = this.#input.loop.byConfigId.get(context.codonId);
    if (step === undefined) return undefined;
    const budgetStop = this.#tokenStop();
    if (budgetStop !== undefined) return budgetStop;
    const until = this.#input.until;
    if (!context.isLastInIteration || until === undefined) return undefined;
    const place = { step, iteration: context.iteration + 1, codonId: context.runtimeId };
    const result = completedResult(place, context.result);
    return (await this.#ask(until, result)) ? { cause: UNTIL_CAUSE } : undefined;
  };

  /** Asks `until` about the final iteration's last step, which the rule never sees. */
  async judgeLast(result: Result): Promise<boolean> {
    const until = this.#input.until;
    if (until === undefined) return false;
    try {
      return await this.#ask(until, result);
    } catch {
      return false;
    }
  }

  async #ask(until: UntilPredicate, result: Result): Promise<boolean> {
    try {
      return (await until(result, result.iteration)) === true;
    } catch (error) {
      this.#untilError = error instanceof Error ? error.message : String(error);
      throw error;
    }
  }

  #tokenStop(): LoopStopVerdict | undefined {
    const budget = this.#input.tokenBudget;
    const totals = this.#state?.totals;
    if (budget === undefined || totals === undefined) return undefined;
    const used =
      totals.inputTokens + totals.outputTokens + totals.cacheReadTokens + totals.cacheCreationTokens;
    if (used < budget) return undefined;
    return { cause: TOKEN_BUDGET_CAUSE, message: `${used} tokens used of a budget of ${budget}` };
  }

  /** The step's input: the loop's input first, then the output of the step that runs before it. */
  #inputOf(step: LoopStep, iteration: number, outputs: ReadonlyMap<string, string>): string {
    const { steps } = this.#input.loop;
    if (step.index === 0 && iteration === 0) return this.#input.input;
    const previous = step.index > 0 ? steps[step.index - 1] : steps[steps.length - 1];
    const previousIteration = step.index > 0 ? iteration : iteration - 1;
    return outputs.get(runtimeIdOf(previous?.configId ?? "", previousIteration)) ?? "";
  }

  #outputsFrom(state: RunState): Map<string, string> {
    if (this.#outputs !== undefined) return this.#outputs;
    this.#outputs = new Map();
    for (const record of state.codons) {
      if (record.status === "completed") this.#outputs.set(record.id, record.result?.text ?? "");
    }
    return this.#outputs;
  }
}

/** The relay of a prepared loop, with the caller's input, `until` and token budget. */
export function relayFor(
  options: Pick<CheckedLoopOptions, "input" | "until" | "budget">,
  prepared: { readonly loop: LoopHank; readonly files: LoopFiles },
): StepRelay {
  return new StepRelay({
    loop: prepared.loop,
    files: prepared.files,
    input: options.input,
    ...(options.until !== undefined && { until: options.until }),
    ...(options.budget.tokens !== undefined && { tokenBudget: options.budget.tokens }),
  });
}
