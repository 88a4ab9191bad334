import type { ParkReason, RunStateName, TerminalCause } from "../../events/loop-run-states.ts";
import type { LiveMove } from "../../events/loop-words.ts";

export { LIVE_MOVES, type LiveMove } from "../../events/loop-words.ts";

/**
 * Every way a run may move between its states, as one table. `via` names why: a terminal cause, a park
 * reason, or one of the live moves below. Anything not in the table is a bug in the coordinator and
 * throws; the store never holds a move the table does not allow.
 */

export type Via = LiveMove | ParkReason | TerminalCause;

/** `new` is the moment before the run exists: its first state. */
export type FromState = RunStateName | "new";

export interface Edge {
  readonly from: FromState;
  readonly to: RunStateName;
  readonly via: Via;
}

function edges(from: FromState, to: RunStateName, vias: readonly Via[]): Edge[] {
  return vias.map((via) => ({ from, to, via }));
}

const STOP = ["operator_stop"] as const;
/** A pinned file whose hash no longer matches is found before a poll, a generation, a gate or a hook. */
const TAMPERED = ["contract_tampered"] as const;

export const STATE_TABLE: readonly Edge[] = [
  // Admission: a delivery run starts running (or queued behind a sibling); a watch run waits for its tick.
  ...edges("new", "running", ["admitted"]),
  ...edges("new", "queued", ["deferred"]),
  ...edges("new", "watching", ["armed"]),
  ...edges("queued", "running", ["promoted"]),
  ...edges("queued", "failed", STOP),
  ...edges("watching", "running", ["tick"]),
  ...edges("watching", "stalled", ["source_silent"]),
  ...edges("watching", "paused", ["operator_pause"]),
  ...edges("watching", "failed", [...STOP, ...TAMPERED]),
  ...edges("running", "needs-approval", ["human_gate", "budget_escalated", "interrupted"]),
  ...edges("running", "paused", ["operator_pause"]),
  ...edges("running", "done", ["gates_passed", "unverified"]),
  ...edges("running", "no-op", ["precheck_clean", "clean_tick"]),
  ...edges("running", "blocked", ["missing_dependency", "missing_credential", "unreachable", "hook_denied"]),
  ...edges("running", "failed", [
    "body_failed",
    "gate_error",
    "hook_error",
    "hook_denied",
    "operator_stop",
    ...TAMPERED,
  ]),
  ...edges("running", "exhausted", [
    "iteration_cap",
    "gate_max_revisions",
    "fan_out_ceiling",
    "budget_tokens",
    "budget_wall_clock",
  ]),
  ...edges("running", "stalled", ["no_progress_hash", "blocker_signature", "inactivity", "failure_breaker"]),
  ...edges("needs-approval", "running", ["approved"]),
  ...edges("needs-approval", "blocked", ["human_rejected"]),
  ...edges("needs-approval", "exhausted", ["budget_tokens", "budget_wall_clock"]),
  ...edges("needs-approval", "failed", STOP),
  ...edges("paused", "running", ["resumed"]),
  ...edges("paused", "watching", ["resumed"]),
  ...edges("paused", "failed", STOP),
];

export class IllegalTransitionError extends Error {
  readonly code = "illegal-transition";
  constructor(
    readonly from: FromState,
    readonly to: RunStateName,
    readonly via: Via,
  ) {
    super(`Illegal loop run transition ${from} -> ${to} (${via}): the state table has no such edge`);
    this.name = "IllegalTransitionError";
  }
}

/** Whether the table allows the move. */
export function isAllowed(from: FromState, to: RunStateName, via: Via): boolean {
  return STATE_TABLE.some((edge) => edge.from === from && edge.to === to && edge.via === via);
}

/** Checks a move against the table; an illegal move is a bug and throws. Returns the new state. */
export function transition(from: FromState, to: RunStateName, via: Via): RunStateName {
  if (!isAllowed(from, to, via)) throw new IllegalTransitionError(from, to, via);
  return to;
}
