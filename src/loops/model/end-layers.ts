import {
  isTerminalState,
  type Outcome,
  type RunStateName,
  type TerminalCause,
} from "../../events/loop-run-states.ts";
import type { EndKind } from "../../events/loop-words.ts";

export { END_KINDS, type EndKind } from "../../events/loop-words.ts";

/**
 * Every layer's end reason in the same six kinds, from the codon's layers up to the run's: the
 * generation already uses them (its body's end), and a terminal run records two more beside its
 * richer outcome. `driver`: how the driver's last piece of work ended (the last generation's body, or
 * `aborted` for a stop). `goal`: what the outcome means in these kinds — done and no-op complete;
 * blocked and stalled (progress impossible as things stand) are blocked; an exhausted limit cut the
 * work short, the kind a truncation has (`max-tokens`); a stop is `aborted`; a failure is an `error`,
 * except a hook's denial, which is `blocked`.
 */

export interface RunEndLayers {
  readonly driver: EndKind;
  readonly goal: EndKind;
}

/** The states a generation record can end in are end kinds already (`running` is not an end). */
type GenerationEnd = "running" | "completed" | "error" | "blocked" | "aborted" | "interrupted";

export function goalEndKind(outcome: Outcome): EndKind {
  switch (outcome.state) {
    case "done":
    case "no-op":
      return "completed";
    case "blocked":
    case "stalled":
      return "blocked";
    case "exhausted":
      return "max-tokens";
    case "failed":
      if (outcome.cause === "operator_stop") return "aborted";
      return outcome.cause === "hook_denied" ? "blocked" : "error";
  }
}

/** A stored run's end layers (undefined while it is live), as every face shows them. */
export function endLayersOf(
  run: { readonly state: RunStateName; readonly cause: TerminalCause | null },
  last: { readonly state: GenerationEnd } | undefined,
): RunEndLayers | null {
  if (!isTerminalState(run.state) || run.cause === null) return null;
  return runEndLayers({ state: run.state, cause: run.cause } as Outcome, last?.state);
}

/** Pure: the run's two layers from its outcome and its last generation's state (none: a pre-check). */
export function runEndLayers(outcome: Outcome, lastGeneration: GenerationEnd | undefined): RunEndLayers {
  const stopped = outcome.state === "failed" && outcome.cause === "operator_stop";
  const driver: EndKind =
    stopped || lastGeneration === "aborted"
      ? "aborted"
      : lastGeneration === undefined || lastGeneration === "running"
        ? "completed"
        : lastGeneration;
  return { driver, goal: goalEndKind(outcome) };
}
