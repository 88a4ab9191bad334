/**
 * The eleven states a Loop run can hold, exactly one at a time: five live, six terminal. Each terminal
 * state carries one cause from a closed list, and each parked state (`needs-approval`, `paused`) one
 * park reason, so a run never ends (or waits) without saying why.
 */

export const LIVE_STATES = ["queued", "running", "watching", "needs-approval", "paused"] as const;
export const TERMINAL_STATES = ["done", "no-op", "blocked", "failed", "exhausted", "stalled"] as const;
export const RUN_STATES = [...LIVE_STATES, ...TERMINAL_STATES] as const;

export type LiveState = (typeof LIVE_STATES)[number];
export type TerminalState = (typeof TERMINAL_STATES)[number];
export type RunStateName = (typeof RUN_STATES)[number];

/** The closed list of causes of each terminal state. */
export const TERMINAL_CAUSES = {
  // `unverified`: a Loop admitted anyway without a gate finished a generation; nothing checked it.
  done: ["gates_passed", "unverified"],
  "no-op": ["precheck_clean", "clean_tick"],
  blocked: ["missing_dependency", "missing_credential", "unreachable", "human_rejected", "hook_denied"],
  failed: ["body_failed", "gate_error", "hook_error", "hook_denied", "operator_stop", "contract_tampered"],
  exhausted: ["iteration_cap", "gate_max_revisions", "fan_out_ceiling", "budget_tokens", "budget_wall_clock"],
  stalled: ["no_progress_hash", "blocker_signature", "inactivity", "failure_breaker", "source_silent"],
} as const satisfies Record<TerminalState, readonly string[]>;

export type CauseOf<S extends TerminalState> = (typeof TERMINAL_CAUSES)[S][number];
export type TerminalCause = CauseOf<TerminalState>;

/** A terminal outcome: the state and its cause, always together. */
export type Outcome = {
  [S in TerminalState]: { readonly state: S; readonly cause: CauseOf<S> };
}[TerminalState];

/** Why a run waits in a parked state. */
export const PARK_REASONS = {
  "needs-approval": ["human_gate", "budget_escalated", "interrupted"],
  paused: ["operator_pause"],
} as const;

export type ParkedState = keyof typeof PARK_REASONS;
export type ParkReason = (typeof PARK_REASONS)[ParkedState][number];

/** The blocked causes a body failure or a blocked gate can report (the rest are decided by the loop). */
export const BLOCKED_BY_DEPENDENCY = ["missing_dependency", "missing_credential", "unreachable"] as const;
export type DependencyCause = (typeof BLOCKED_BY_DEPENDENCY)[number];

export function isTerminalState(state: RunStateName): state is TerminalState {
  return (TERMINAL_STATES as readonly string[]).includes(state);
}

export function isLiveState(state: RunStateName): state is LiveState {
  return (LIVE_STATES as readonly string[]).includes(state);
}

/** Whether `cause` is one of the causes of terminal state `state`. */
export function isCauseOf(state: TerminalState, cause: string): boolean {
  return (TERMINAL_CAUSES[state] as readonly string[]).includes(cause);
}

/** Whether `reason` is one of the park reasons of `state`. */
export function isParkReasonOf(state: ParkedState, reason: string): boolean {
  return (PARK_REASONS[state] as readonly string[]).includes(reason);
}

/**
 * Exit codes of `hankweave loops run` and `loops show --wait`: 0 for a success (done, no-op), one
 * code per bad ending, 1 for a usage error or an admission refusal, 2 when the run was left parked.
 */
export const EXIT_CODES: Readonly<Record<TerminalState, number>> = {
  done: 0,
  "no-op": 0,
  blocked: 3,
  failed: 4,
  exhausted: 5,
  stalled: 6,
};
export const EXIT_USAGE = 1;
export const EXIT_PARKED = 2;

/** Terminal states a notification (the `escalation` command) goes out for. */
export function isBadEnding(state: TerminalState): boolean {
  return state !== "done" && state !== "no-op";
}
