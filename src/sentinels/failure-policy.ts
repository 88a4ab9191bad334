import type { SentinelConfig } from "../hank/schema/index.ts";

/** Why a trigger of a sentinel failed. */
export type TriggerFailure =
  | { readonly kind: "model"; readonly retriable: boolean }
  | { readonly kind: "rejected" }
  | { readonly kind: "template" }
  | { readonly kind: "write" };

export type FailureVerdict =
  | { readonly kind: "keep" }
  | {
      readonly kind: "unload";
      readonly reason: "fatal-error" | "consecutive-failures";
      readonly errorType?: "configuration";
    };

/** Unload after this many failed triggers in a row, unless the sentinel says otherwise. */
export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 3;

/**
 * What a failed trigger does to its sentinel. Pure. In order:
 * 1. a model failure that cannot succeed later (bad key, unknown model, invalid request) is fatal: the
 *    sentinel unloads with `fatal-error` (`errorType: "configuration"`) unless `unloadOnFatalError` is
 *    false, in which case it counts as any other failure;
 * 2. a conversational sentinel with `continueOnError` keeps going whatever fails;
 * 3. `maxConsecutiveFailures` (default 3) failed triggers in a row unload it with `consecutive-failures`.
 * A rejected structured output, a template that fails on some events and a failed file write are
 * ordinary failures: the next trigger may well succeed.
 */
export function decideAfterFailure(
  failure: TriggerFailure,
  consecutiveFailures: number,
  config: Pick<SentinelConfig, "errorHandling" | "conversational">,
): FailureVerdict {
  const fatal = failure.kind === "model" && !failure.retriable;
  if (fatal && config.errorHandling?.unloadOnFatalError !== false) {
    return { kind: "unload", reason: "fatal-error", errorType: "configuration" };
  }
  if (config.conversational?.continueOnError === true) return { kind: "keep" };
  const max = config.errorHandling?.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES;
  return consecutiveFailures >= max ? { kind: "unload", reason: "consecutive-failures" } : { kind: "keep" };
}
