import type { OnFailure, RetryConfig } from "../../hank/schema/index.ts";
import type { FailureReason } from "../../harness/failure-reason.ts";
import type { BudgetExceeded } from "../budget/types.ts";
import { backoffDelayMs } from "./retry-backoff.ts";

/**
 * The failure policy (reference 1.12): what the engine does after a codon attempt failed. Pure; the
 * driver performs the action (waits and retries, continues, parks, or ends the run).
 *
 * | onFailure | retriable                                        | permanent |
 * |-----------|--------------------------------------------------|-----------|
 * | abort     | stay-active (headless: fail-run)                 | fail-run  |
 * | retry     | retry while attempt < maxAttempts, then fail-run | fail-run  |
 * | ignore    | ignore                                           | ignore    |
 */

/** Retry bounds when a codon has `onFailure: "retry"` without a `retryConfig` (the schema's defaults). */
export const DEFAULT_RETRY_CONFIG: RetryConfig = { maxAttempts: 3, delayMs: 1000, maxDelayMs: 60_000 };

export interface FailurePolicyInput {
  /** The codon's policy; absent means `abort`. */
  readonly onFailure: OnFailure | undefined;
  readonly reason: FailureReason;
  /** The 1-based number of the attempt that just failed. */
  readonly attempt: number;
  /** The codon's retry bounds; missing fields take `DEFAULT_RETRY_CONFIG`. */
  readonly retryConfig: Partial<RetryConfig> | undefined;
  /** No interactive client can retry by hand, so parking would hang the run. */
  readonly headless: boolean;
}

/** Why a failure ends the run; for the message the driver writes. */
export type FailRunCause = "permanent" | "retries-exhausted" | "headless-abort";

export type FailureAction =
  /** Wait `delayMs`, then start attempt `nextAttempt` of `maxAttempts`. */
  | {
      readonly kind: "retry";
      readonly delayMs: number;
      readonly nextAttempt: number;
      readonly maxAttempts: number;
    }
  /** Record the failure (`failureIgnored: true`) and continue with the next codon. */
  | { readonly kind: "ignore" }
  /** Keep the server up with the codon failed, so that a client can retry it. */
  | { readonly kind: "stay-active" }
  /** The run fails (exit code 1). */
  | { readonly kind: "fail-run"; readonly cause: FailRunCause };

export function resolveFailureAction(input: FailurePolicyInput): FailureAction {
  const { reason } = input;
  switch (input.onFailure ?? "abort") {
    case "ignore":
      return { kind: "ignore" };
    case "abort":
      if (!reason.retriable) return { kind: "fail-run", cause: "permanent" };
      return input.headless ? { kind: "fail-run", cause: "headless-abort" } : { kind: "stay-active" };
    case "retry":
      return resolveRetry(input);
  }
}

function resolveRetry(input: FailurePolicyInput): FailureAction {
  if (!input.reason.retriable) return { kind: "fail-run", cause: "permanent" };
  const config = { ...DEFAULT_RETRY_CONFIG, ...input.retryConfig };
  if (input.attempt >= config.maxAttempts) return { kind: "fail-run", cause: "retries-exhausted" };
  return {
    kind: "retry",
    delayMs: backoffDelayMs(input.attempt - 1, config, input.reason.retryAfterMs),
    nextAttempt: input.attempt + 1,
    maxAttempts: config.maxAttempts,
  };
}

/**
 * The failure of a codon stopped by its budget under `onExceeded: "fail"`. It is permanent on purpose:
 * a retry would meet the same limit again, or a smaller one, since the pool only shrinks. So with
 * `onFailure: "retry"` a budget failure fails the run at once (why the validator warns about that
 * combination), `ignore` continues past it, and `abort` fails the run.
 */
export function budgetExceededFailure(exceeded: BudgetExceeded): FailureReason {
  return { type: "unknown", retriable: false, message: `Budget exceeded: ${exceeded.message}` };
}
