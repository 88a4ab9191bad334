/**
 * The eleven run states: one label and one colour class each (styles.css `.state-<name>`), used on every
 * page. Colour carries state only; nothing else on the Loops pages is coloured.
 */
export const STATE_LABELS: Readonly<Record<string, string>> = {
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

export const TERMINAL_STATES = new Set(["done", "no-op", "blocked", "failed", "exhausted", "stalled"]);

/** What each cause or park reason means, in a sentence (the ids are shown too). */
const CAUSE_SENTENCES: Readonly<Record<string, string>> = {
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
  return STATE_LABELS[state] ?? state;
}

export function causeText(cause: string | null): string | undefined {
  if (cause === null) return undefined;
  const sentence = CAUSE_SENTENCES[cause];
  return sentence === undefined ? cause : `${cause}: ${sentence}`;
}

export function StateBadge(props: { readonly state: string }) {
  return (
    <span className={`state state-${props.state}`} data-state={props.state}>
      {stateLabel(props.state)}
    </span>
  );
}
