import {
  type ParkReason,
  type RunStateName,
  TERMINAL_STATES as TERMINAL,
  type TerminalCause,
} from "../../events/loop-run-states.ts";

/**
 * The eleven run states: one label and one colour class each (styles.css `.state-<name>`), used on every
 * page. Colour carries state only; nothing else on the Loops pages is coloured. Typed by the vocabulary
 * (events/loop-run-states.ts): a state without a label does not compile.
 */
export const STATE_LABELS: Readonly<Record<RunStateName, string>> = {
  queued: "Queued",
  running: "Running",
  watching: "Watching",
  "needs-approval": "Needs approval",
  paused: "Paused",
  done: "Done",
  "no-op": "No-op",
  blocked: "Blocked",
  failed: "Failed",
  exhausted: "Exhausted",
  stalled: "Stalled",
};

export const TERMINAL_STATES: ReadonlySet<string> = new Set(TERMINAL);

/** What each cause or park reason means, in a sentence (the ids are shown too); one for every one. */
const CAUSE_SENTENCES: Readonly<Record<TerminalCause | ParkReason, string>> = {
  gates_passed: "every gate passed",
  unverified: "it finished, but it has no gate: nothing verified it (admitted anyway)",
  precheck_clean: "the gates passed before any generation: nothing to do",
  clean_tick: "the watch tick found no items",
  missing_dependency: "a dependency is missing",
  missing_credential: "a credential is missing",
  unreachable: "a service could not be reached",
  human_rejected: "a person rejected it",
  hook_denied: "a hook denied it",
  body_failed: "the body failed in a way retrying cannot fix",
  gate_error: "a gate could not run",
  hook_error: "a hook failed",
  operator_stop: "an operator stopped it",
  contract_tampered: "a pinned file of its contract changed: its hash no longer matches",
  iteration_cap: "the iteration cap was reached before the gates passed",
  gate_max_revisions: "a gate failed its maximum number of revisions",
  fan_out_ceiling: "more items than the fan-out ceiling",
  budget_tokens: "the token budget ran out",
  budget_wall_clock: "the wall-clock budget ran out",
  no_progress_hash: "the generations stopped changing anything",
  blocker_signature: "the same blockers repeated",
  inactivity: "nothing finished for too long",
  failure_breaker: "too many failed generations in a row",
  source_silent: "the watched source went silent",
  human_gate: "a human gate asks for a decision",
  budget_escalated: "a budget ran out and asks for more",
  interrupted: "a generation was interrupted and asks whether to resume",
  operator_pause: "an operator paused it",
};

export function stateLabel(state: string): string {
  return Object.hasOwn(STATE_LABELS, state) ? STATE_LABELS[state as RunStateName] : state;
}

export function causeText(cause: string | null): string | undefined {
  if (cause === null) return undefined;
  if (!Object.hasOwn(CAUSE_SENTENCES, cause)) return cause;
  return `${cause}: ${CAUSE_SENTENCES[cause as TerminalCause | ParkReason]}`;
}

export function StateBadge(props: { readonly state: string }) {
  return (
    <span className={`state state-${props.state}`} data-state={props.state}>
      {stateLabel(props.state)}
    </span>
  );
}
