import type { Codon, TerminateOn } from "../../hank/schema/index.ts";
import type { FailureReason } from "../../harness/failure-reason.ts";
import type { BudgetScope } from "../../plan/index.ts";
import type { EventDraftOf } from "../run/event-sink.ts";
import type { AttemptEnd } from "./attempt-end.ts";
import { codonCompletedDraft } from "./codon-completed-draft.ts";
import type { CodonOutcome } from "./codon-outcome.ts";
import { type FailureAction, resolveFailureAction } from "./failure-policy.ts";

/** What decides a codon's course once an attempt and its finish hook are over. */
export interface AfterAttemptInput {
  readonly runtimeId: string;
  readonly attempt: number;
  readonly end: AttemptEnd;
  /** Why the finish hook (checkpoint, outputs, archive) failed; undefined when it passed or did not run. */
  readonly hookProblem: string | undefined;
  readonly codon: Pick<Codon, "onFailure" | "retryConfig">;
  readonly terminateOn: TerminateOn | undefined;
  /** No client can retry a parked codon (see `resolveFailureAction`). */
  readonly headless: boolean;
}

export type AfterAttempt =
  /**
   * The codon is over: return `outcome`. `completing`: it succeeded, and its status moves to
   * `completing-sentinels` before the driver returns.
   */
  | { readonly kind: "finish"; readonly outcome: CodonOutcome; readonly completing: boolean }
  /** Journal `completed` and `notice` now, wait `delayMs`, then run attempt `nextAttempt`. */
  | {
      readonly kind: "retry";
      readonly completed: EventDraftOf;
      readonly notice: string;
      readonly delayMs: number;
      readonly nextAttempt: number;
    };

/**
 * The codon's course after one attempt. Pure. In order: a cancel ends the codon; a failed finish hook
 * fails the run (even after an agent success: its `codon.completed` must not say `success`, or a
 * resumed run would skip the codon); a success completes it; a failure goes to the failure policy.
 */
export function decideAfterAttempt(input: AfterAttemptInput): AfterAttempt {
  const { end } = input;
  if (end.kind === "cancelled") {
    // A user's cancel is no failure: its end reasons say `aborted`, and no failure reason is invented.
    const pending = [completed(input, end, undefined)];
    return finish({ finish: { kind: "failed" }, cancelled: true, pending }, end);
  }
  if (input.hookProblem !== undefined) {
    const reason: FailureReason = { type: "unknown", retriable: false, message: input.hookProblem };
    const pending = [completed(input, failedByHook(end, reason), reason)];
    return finish({ finish: { kind: "failed" }, runFailure: input.hookProblem, pending }, end);
  }
  if (end.kind === "success") return finish(withBudget(succeeded(input, end), end), end, true);
  const action = resolveFailureAction({
    onFailure: input.codon.onFailure,
    reason: end.reason,
    attempt: input.attempt,
    retryConfig: input.codon.retryConfig,
    headless: input.headless,
  });
  if (action.kind !== "retry") return finish(withBudget(failed(input, end, action), end), end);
  return {
    kind: "retry",
    completed: completed(input, end, end.reason),
    notice: `Retrying codon ${input.runtimeId} (attempt ${action.nextAttempt} of ${action.maxAttempts}) in ${action.delayMs}ms: ${end.reason.message}`,
    delayMs: action.delayMs,
    nextAttempt: action.nextAttempt,
  };
}

function finish(outcome: CodonOutcome, end: AttemptEnd, completing = false): AfterAttempt {
  const withResult = end.result === undefined ? outcome : { ...outcome, result: end.result };
  return { kind: "finish", outcome: withResult, completing };
}

function completed(
  input: AfterAttemptInput,
  end: AttemptEnd,
  reason: FailureReason | undefined,
  ignored = false,
): EventDraftOf {
  return codonCompletedDraft({ runtimeId: input.runtimeId, attempt: input.attempt, end, reason, ignored });
}

function failedByHook(end: AttemptEnd, reason: FailureReason): AttemptEnd {
  if (end.kind !== "success") return end;
  const { contextExceeded: _, ...facts } = end;
  return {
    ...facts,
    kind: "failure",
    reason,
    failedDuring: "running",
    endReasons: { ...end.endReasons, codon: "error" },
  };
}

function withBudget(outcome: CodonOutcome, end: AttemptEnd): CodonOutcome {
  return {
    ...outcome,
    ...(end.limits !== undefined && { limits: end.limits }),
    ...(end.budgetExceeded !== undefined && { exceeded: end.budgetExceeded }),
  };
}

/**
 * A success ends the codon as the plan must hear it: on context exhaustion in a `contextExceeded` loop
 * (the loop's own stop), on a budget stop under `onExceeded: "complete"` (the scope that tripped), or
 * plainly completed.
 */
function succeeded(input: AfterAttemptInput, end: Extract<AttemptEnd, { kind: "success" }>): CodonOutcome {
  const done = completed(input, end, undefined);
  if (end.contextExceeded && input.terminateOn?.type === "contextExceeded") {
    const info: EventDraftOf = {
      type: "info",
      data: { message: `Codon ${input.runtimeId} completed successfully due to context exceeded` },
    };
    return { finish: { kind: "context-exceeded" }, sessionExhausted: true, pending: [done, info] };
  }
  if (end.budgetExceeded !== undefined) {
    return { finish: { kind: "budget-exceeded", scope: budgetScopeOf(end) }, pending: [done] };
  }
  return { finish: { kind: "completed" }, sessionExhausted: end.contextExceeded, pending: [done] };
}

/** A failure the policy does not retry: ignored (the run goes on), or the run fails, saying why. */
function failed(
  input: AfterAttemptInput,
  end: Extract<AttemptEnd, { kind: "failure" }>,
  action: Exclude<FailureAction, { kind: "retry" }>,
): CodonOutcome {
  if (action.kind === "ignore") {
    const budget = end.budgetExceeded === undefined ? undefined : budgetScopeOf(end);
    return {
      finish: { kind: "failed-ignored", ...(budget !== undefined && { budget }) },
      pending: [completed(input, end, end.reason, true)],
    };
  }
  const why =
    action.kind === "stay-active"
      ? "no client is attached to retry it"
      : action.cause === "headless-abort"
        ? "retriable, but onFailure is 'abort' and --headless has no client to retry it"
        : action.cause === "retries-exhausted"
          ? "retries exhausted"
          : "permanent failure";
  return {
    finish: { kind: "failed" },
    runFailure: `Codon ${input.runtimeId} failed (${why}): ${end.reason.message}`,
    pending: [completed(input, end, end.reason)],
    ...(action.kind === "stay-active" && { parkable: true }),
  };
}

/** Which budget tripped (the codon's own, its loop's or the hank's), from the limit that was exceeded. */
function budgetScopeOf(end: AttemptEnd): BudgetScope {
  const currency = end.budgetExceeded?.currency;
  return (currency === undefined ? undefined : end.limits?.[currency]?.scope) ?? "codon";
}
