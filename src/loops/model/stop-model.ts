import type { Outcome, ParkReason } from "../../events/loop-run-states.ts";
import { firstVerdict, type StopRule } from "../../util/stop-rule.ts";
import type { EffectiveBudgets, Meters } from "./budgets.ts";
import { exceededBudget } from "./budgets.ts";
import { blockerSignature, type GenerationFacts, isFailedGeneration } from "./generation-facts.ts";
import type { LimitValues } from "./limits.ts";

/**
 * The stop model as pure functions over recorded facts: after each generation (and at every boundary,
 * such as a resume) the coordinator asks `decide` whether the run is done, ends otherwise, parks, or
 * goes on. When several causes meet at one boundary the precedence is
 * stop > done > blocked > failed > stalled > exhausted > park > pause.
 */

export interface GateLimit {
  readonly id: string;
  readonly maxRevisions: number;
}

export interface DecisionInput {
  readonly limits: LimitValues;
  readonly gates: readonly GateLimit[];
  /** Every generation so far, oldest first; the one that just ended is last. */
  readonly history: readonly GenerationFacts[];
  readonly meters: Meters;
  readonly budgets: EffectiveBudgets;
  readonly onExceeded: "halt" | "escalate";
  /** Operator notes not yet handed to a generation: `done` waits for them. */
  readonly unreadOperatorMessages: number;
  readonly stopRequested: boolean;
  readonly pauseRequested: boolean;
}

export type Decision =
  | { readonly kind: "end"; readonly outcome: Outcome }
  | { readonly kind: "park"; readonly state: "needs-approval" | "paused"; readonly reason: ParkReason }
  | { readonly kind: "continue"; readonly because: "start" | "revise" | "inbox" | "failed-generation" };

type Candidate = Exclude<Decision, { kind: "continue" }>;

function end(outcome: Outcome): Candidate {
  return { kind: "end", outcome };
}

/**
 * The Loops stop rules in precedence order, in the one stop-rule shape (`util/stop-rule.ts`): the
 * boundary's facts go in, an ending or a park with its cause comes out.
 */
const STOP_RULES: readonly StopRule<DecisionInput, Candidate>[] = [
  (input) => (input.stopRequested ? end({ state: "failed", cause: "operator_stop" }) : undefined),
  (input) => {
    const last = input.history.at(-1);
    if (last === undefined || !gatesPassed(last, input.gates.length) || input.unreadOperatorMessages > 0)
      return undefined;
    // A Loop without gates (only admitted anyway, with a reason) finished, but nothing verified it.
    return end({ state: "done", cause: input.gates.length === 0 ? "unverified" : "gates_passed" });
  },
  (input) => withLast(input, blocked),
  (input) => withLast(input, failed),
  stalled,
  (input) => exhausted(input, input.history.at(-1)),
  (input) => park(input, input.history.at(-1)),
  (input) => (input.pauseRequested ? { kind: "park", state: "paused", reason: "operator_pause" } : undefined),
];

function withLast(
  input: DecisionInput,
  rule: (last: GenerationFacts) => Candidate | undefined,
): Candidate | undefined {
  const last = input.history.at(-1);
  return last === undefined ? undefined : rule(last);
}

/** The decision at a boundary: the first stop rule's verdict, else go on. */
export function decide(input: DecisionInput): Decision {
  const chosen = firstVerdict(STOP_RULES, input);
  if (chosen !== undefined) return chosen;
  const last = input.history.at(-1);
  if (last === undefined) return { kind: "continue", because: "start" };
  if (gatesPassed(last, input.gates.length)) return { kind: "continue", because: "inbox" };
  return { kind: "continue", because: isFailedGeneration(last) ? "failed-generation" : "revise" };
}

/** Every gate ran and passed (a Loop with no gate passes as soon as its body completes). */
export function gatesPassed(facts: GenerationFacts, gateCount: number): boolean {
  return (
    facts.body.kind === "completed" &&
    facts.gates.length === gateCount &&
    facts.gates.every((gate) => gate.verdict === "pass")
  );
}

function blocked(last: GenerationFacts): Candidate | undefined {
  if (last.body.kind === "blocked") return end({ state: "blocked", cause: last.body.cause });
  const gate = last.gates.find((g) => g.verdict === "blocked");
  if (gate !== undefined) return end({ state: "blocked", cause: gate.cause ?? "missing_dependency" });
  return undefined;
}

function failed(last: GenerationFacts): Candidate | undefined {
  if (last.body.kind === "error" && last.body.unrecoverable)
    return end({ state: "failed", cause: "body_failed" });
  if (last.gates.some((g) => g.verdict === "error" && g.unrecoverable === true)) {
    return end({ state: "failed", cause: "gate_error" });
  }
  return undefined;
}

function stalled(input: DecisionInput): Candidate | undefined {
  const { limits, history } = input;
  if (history.at(-1)?.inactive === true) return end({ state: "stalled", cause: "inactivity" });
  if (noProgressStreak(history, limits.window) >= limits.window) {
    return end({ state: "stalled", cause: "no_progress_hash" });
  }
  if (blockerStreak(history) >= limits.window) return end({ state: "stalled", cause: "blocker_signature" });
  if (failureStreak(history) >= limits.failure_breaker) {
    return end({ state: "stalled", cause: "failure_breaker" });
  }
  return undefined;
}

function exhausted(input: DecisionInput, last: GenerationFacts | undefined): Candidate | undefined {
  const { limits, history } = input;
  const exceeded = exceededBudget(input.meters, input.budgets);
  if (exceeded !== null && input.onExceeded === "halt") {
    return end({ state: "exhausted", cause: exceeded === "tokens" ? "budget_tokens" : "budget_wall_clock" });
  }
  const passed = last !== undefined && gatesPassed(last, input.gates.length);
  if (limits.iteration_cap > 0 && history.length >= limits.iteration_cap && !passed) {
    return end({ state: "exhausted", cause: "iteration_cap" });
  }
  for (const gate of input.gates) {
    if (revisionsOf(gate.id, history) >= gate.maxRevisions) {
      return end({ state: "exhausted", cause: "gate_max_revisions" });
    }
  }
  return undefined;
}

function park(input: DecisionInput, last: GenerationFacts | undefined): Candidate | undefined {
  if (exceededBudget(input.meters, input.budgets) !== null && input.onExceeded === "escalate") {
    return { kind: "park", state: "needs-approval", reason: "budget_escalated" };
  }
  if (last?.gates.some((gate) => gate.verdict === "approval")) {
    return { kind: "park", state: "needs-approval", reason: "human_gate" };
  }
  return undefined;
}

/**
 * Generations in a row, at the end of the history, whose hash was among the `window` hashes before it.
 * Generations whose body did not complete have no hash and are skipped: they never count here.
 */
export function noProgressStreak(history: readonly GenerationFacts[], window: number): number {
  const hashes = history.map((facts) => facts.hash).filter((hash): hash is string => hash !== null);
  let streak = 0;
  for (let i = 0; i < hashes.length; i += 1) {
    const previous = hashes.slice(Math.max(0, i - window), i);
    streak = previous.includes(hashes[i] ?? "") ? streak + 1 : 0;
  }
  return streak;
}

/** Generations in a row, at the end, whose gates reported the same non-empty set of blocker ids. */
export function blockerStreak(history: readonly GenerationFacts[]): number {
  const hashed = history.filter((facts) => facts.hash !== null);
  const last = hashed.at(-1);
  if (last === undefined) return 0;
  const signature = blockerSignature(last).join("\u0000");
  if (signature === "") return 0;
  let streak = 0;
  for (let i = hashed.length - 1; i >= 0; i -= 1) {
    const facts = hashed[i];
    if (facts === undefined || blockerSignature(facts).join("\u0000") !== signature) break;
    streak += 1;
  }
  return streak;
}

/** Failed generations (body failed or gate error) in a row, at the end of the history. */
export function failureStreak(history: readonly GenerationFacts[]): number {
  let streak = 0;
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const facts = history[i];
    if (facts === undefined || !isFailedGeneration(facts)) break;
    streak += 1;
  }
  return streak;
}

/** The generations in which the gate ran and did not pass. */
export function revisionsOf(gateId: string, history: readonly GenerationFacts[]): number {
  return history.filter((facts) =>
    facts.gates.some((gate) => gate.gateId === gateId && gate.verdict === "revise"),
  ).length;
}

/**
 * The inactivity clock: stalled when no node (codon, gate, hook) reached a terminal state for
 * `inactivitySec` of running time, and never while a node is still running.
 */
export function inactivityStalled(input: {
  readonly runningMsNow: number;
  readonly runningMsAtLastProgress: number;
  readonly inactivitySec: number;
  readonly nodeRunning: boolean;
}): boolean {
  if (input.nodeRunning) return false;
  return input.runningMsNow - input.runningMsAtLastProgress >= input.inactivitySec * 1000;
}
