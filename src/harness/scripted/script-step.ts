/**
 * One step of a scripted prompt, as parsed from its lines (see docs/scripted-agent.md). `line` is the
 * 1-based line of the prompt the step came from; prose steps carry the line of their first line.
 * `when`, present only when the directive named conditions, limits the step to some attempts or loop
 * iterations; a step whose condition does not hold is skipped.
 */
export type ScriptStep = StepBody & { readonly line: number; readonly when?: StepCondition };

export type StepBody =
  | { readonly kind: "prose"; readonly text: string }
  | { readonly kind: "say"; readonly text: string }
  | { readonly kind: "think"; readonly text: string }
  | { readonly kind: "write"; readonly path: string; readonly text: string }
  | { readonly kind: "append"; readonly path: string; readonly text: string }
  | { readonly kind: "delete"; readonly path: string }
  | { readonly kind: "run"; readonly command: string }
  | { readonly kind: "usage"; readonly usage: ScriptUsage }
  | { readonly kind: "fail"; readonly text: string }
  | { readonly kind: "exhaust-context" }
  | {
      readonly kind: "max-tokens";
      /** The tool call the limit cuts off; a Write with no arguments yet when none is named. */
      readonly call?: ToolCallSketch;
      /** The turn goes on after the cut (the call gets an error result); otherwise it stops there. */
      readonly continues: boolean;
    }
  | { readonly kind: "blocked"; readonly call: ToolCallSketch }
  | { readonly kind: "crash"; readonly exit: ProcessExit }
  | { readonly kind: "sleep"; readonly ms: number };

/** Which attempts (from 1) and loop iterations (from 0) a step runs on; an absent list means all. */
export interface StepCondition {
  readonly attempts?: readonly number[];
  readonly iterations?: readonly number[];
}

/** A tool call named in a directive: the directive that would make it, and its path or command. */
export interface ToolCallSketch {
  readonly tool: "write" | "append" | "delete" | "run";
  /** The path for file tools, the command line for `run`. */
  readonly argument: string;
}

/** How the agent's process ends in `@crash`: an exit code or a signal name. */
export type ProcessExit = { readonly code: number } | { readonly signal: string };

/** A usage increment as written in `@usage`; cost 0 when not given (scripted pricing is zero). */
export interface ScriptUsage {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly cost: number;
}

/** A line that looked like a directive but could not be parsed. */
export interface ScriptError {
  readonly line: number;
  readonly message: string;
}

export type ParsedScript =
  | { readonly ok: true; readonly steps: readonly ScriptStep[]; readonly hasUsage: boolean }
  | { readonly ok: false; readonly errors: readonly ScriptError[] };

/** The directive names, in the order the docs list them. */
export const DIRECTIVE_NAMES = [
  "write",
  "append",
  "delete",
  "run",
  "say",
  "think",
  "usage",
  "fail",
  "exhaust-context",
  "max-tokens",
  "blocked",
  "crash",
  "sleep",
] as const;

export type DirectiveName = (typeof DIRECTIVE_NAMES)[number];
