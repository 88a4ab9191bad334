/**
 * The closed word lists of Loops that cross a boundary (the daemon's HTTP API, its event log, the web
 * pages, the CLI's JSON): defined once here, at the bottom, so the Loops code, the daemon and the pages
 * share them and a word one side does not know fails to compile. States, causes and park reasons are in
 * `loop-run-states.ts`.
 */

/** The operator's verbs on a run (`POST /runs/<id>/commands`, `hankweave loops <verb>`). */
export const COMMAND_TYPES = ["pause", "resume", "stop", "approve", "reject"] as const;
export type LoopCommandType = (typeof COMMAND_TYPES)[number];

/** Every stop limit of a run (0 = unbounded or off); a run's contract pins one value for each. */
export const LIMIT_KEYS = [
  "iteration_cap",
  "budget_tokens",
  "budget_wall_clock_sec",
  "window",
  "inactivity_sec",
  "failure_breaker",
  "fan_out_width",
  "gate_max_revisions",
  "silence_window_sec",
] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** What a message of a run's inbox is: a continuation intent is a message, never a boolean. */
export const MESSAGE_KINDS = ["operator_note", "gate_blocker", "approval_comment"] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** What admitted a run. */
export const TRIGGER_KINDS = ["manual", "schedule", "watch", "api"] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

/** A gate's answer. `revise`: not yet (the next generation works on it); `error`: it could not judge. */
export const GATE_VERDICTS = ["pass", "revise", "blocked", "error", "approval"] as const;
export type GateVerdictKind = (typeof GATE_VERDICTS)[number];

/** The hooks a Loop's contract may name: before a generation is numbered, before its gates run. */
export const HOOK_NAMES = ["generation_pre", "gate_pre"] as const;
export type HookName = (typeof HOOK_NAMES)[number];

/** A hook's answer: exit 0 allows, 1-125 denies, anything else (a crash, a timeout) is an error. */
export const HOOK_ANSWERS = ["allow", "deny", "error"] as const;
export type HookAnswerKind = (typeof HOOK_ANSWERS)[number];

/** The state of one generation's record: the body's end, or still running. */
export const GENERATION_STATES = [
  "running",
  "completed",
  "error",
  "blocked",
  "aborted",
  "interrupted",
] as const;
export type GenerationState = (typeof GENERATION_STATES)[number];

/** The six kinds every layer's end is told in (a Loop run's driver and goal layers included). */
export const END_KINDS = ["completed", "blocked", "max-tokens", "aborted", "error", "interrupted"] as const;
export type EndKind = (typeof END_KINDS)[number];

/** The moves between live states that are neither a terminal cause nor a park reason. */
export const LIVE_MOVES = [
  "admitted",
  "deferred",
  "armed",
  "promoted",
  "tick",
  "approved",
  "resumed",
] as const;
export type LiveMove = (typeof LIVE_MOVES)[number];

/** The seven conditions admission answers before a task may loop. */
export const CONDITIONS = [
  "recurrence",
  "verifiability",
  "actability",
  "recoverability",
  "economics",
  "governability",
  "sedimentability",
] as const;
export type Condition = (typeof CONDITIONS)[number];

/**
 * What admission warns about. `brake-in-workspace`: a brake the body can write (refused for gates and
 * hooks unless admitted anyway); `definition-changed`: pinned files differ from the loop's last run.
 */
export const ADMISSION_WARNING_CODES = [
  "brake-in-workspace",
  "gate-reads-workspace",
  "body-dollar-budget",
  "definition-changed",
] as const;
export type AdmissionWarningCode = (typeof ADMISSION_WARNING_CODES)[number];

/** Why a start is refused: one code per reason, so no face decides on a message's words. */
export const ADMIT_REFUSAL_CODES = [
  "not-admitted",
  "empty-admit-reason",
  "brake-in-workspace",
  "loosened-limit",
  "live-sibling",
  "sandbox-unavailable",
] as const;
export type AdmitRefusalCode = (typeof ADMIT_REFUSAL_CODES)[number];

/** The kinds of Loop a definition declares. */
export const LOOP_KINDS = ["delivery", "watch"] as const;
export type LoopKindName = (typeof LOOP_KINDS)[number];
