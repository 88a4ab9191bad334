import type { FailureType } from "../../harness/failure-reason.ts";

/**
 * What the model does in one agent session of a conformance scenario, in words every harness can act
 * out: a fake provider server answers by it, the scripted agent runs it as directives. The engine
 * starts the sessions; the plans are used in the order the sessions start.
 */

/** One tool call of the model. */
export type ToolStep =
  | { readonly kind: "write"; readonly path: string; readonly content: string }
  | { readonly kind: "run"; readonly command: string };

/** The provider faults every harness must classify (reference 1.15). */
export const CONFORMANCE_FAULTS = [
  "rate-limit",
  "server-error",
  "overloaded",
  "connection-reset",
  "auth",
] as const;
export type ConformanceFault = (typeof CONFORMANCE_FAULTS)[number];

export type SessionPlan =
  /** The model calls each tool in turn, one per response, then answers `text`. */
  | { readonly kind: "work"; readonly steps: readonly ToolStep[]; readonly text: string }
  /** Every request of the session fails with this fault. */
  | { readonly kind: "fault"; readonly fault: ConformanceFault }
  /** The provider rejects the request: the context window is full. */
  | { readonly kind: "overflow" }
  /** The response stops at max output tokens inside a write of `path`; its arguments are cut. */
  | { readonly kind: "max-tokens"; readonly path: string; readonly content: string }
  /** The response starts, then nothing more arrives. */
  | { readonly kind: "stall" }
  /** One response reports `outputTokens` and calls `step`; the next response hangs (a budget must stop it). */
  | { readonly kind: "over-budget"; readonly step: ToolStep; readonly outputTokens: number };

/**
 * How reference 1.15 classifies each fault: the failure type, whether a retry may help, and the
 * classifier's prefix of the message (the rule that matched).
 */
export const FAULT_CLASSES: Readonly<
  Record<
    ConformanceFault,
    { readonly type: FailureType; readonly retriable: boolean; readonly messagePrefix: string }
  >
> = {
  "rate-limit": { type: "rate-limit", retriable: true, messagePrefix: "API rate limit: " },
  "server-error": { type: "api-error", retriable: true, messagePrefix: "API server error: " },
  overloaded: { type: "api-error", retriable: true, messagePrefix: "API server error: " },
  "connection-reset": { type: "api-error", retriable: true, messagePrefix: "API transport error: " },
  auth: { type: "api-error", retriable: false, messagePrefix: "API auth error: " },
};

/**
 * The error text an agent prints for each fault, for agents that read their failure from text (the
 * scripted agent's `@fail`). Worded as Claude Code words them.
 */
export const FAULT_TEXTS: Readonly<Record<ConformanceFault, string>> = {
  "rate-limit": "API Error: Request rejected (429) · Number of requests has exceeded your rate limit",
  "server-error": "API Error: 500 Internal server error",
  overloaded: "API Error: 529 Overloaded",
  "connection-reset": "API Error: Connection dropped (ECONNRESET)",
  auth: "API Error: 401 authentication_error: invalid x-api-key",
};
