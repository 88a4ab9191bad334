/**
 * One step of a scripted prompt, as parsed from its lines (see docs/scripted-agent.md). `line` is the
 * 1-based line of the prompt the step came from; prose steps carry the line of their first line.
 */
export type ScriptStep =
  | { readonly kind: "prose"; readonly line: number; readonly text: string }
  | { readonly kind: "say"; readonly line: number; readonly text: string }
  | { readonly kind: "think"; readonly line: number; readonly text: string }
  | { readonly kind: "write"; readonly line: number; readonly path: string; readonly text: string }
  | { readonly kind: "append"; readonly line: number; readonly path: string; readonly text: string }
  | { readonly kind: "delete"; readonly line: number; readonly path: string }
  | { readonly kind: "run"; readonly line: number; readonly command: string }
  | { readonly kind: "usage"; readonly line: number; readonly usage: ScriptUsage }
  | {
      readonly kind: "fail";
      readonly line: number;
      /** 1-based attempts on which the failure happens; null means every attempt. */
      readonly attempts: readonly number[] | null;
      readonly text: string;
    }
  | { readonly kind: "exhaust-context"; readonly line: number }
  | { readonly kind: "max-tokens"; readonly line: number }
  | { readonly kind: "sleep"; readonly line: number; readonly ms: number };

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
  "sleep",
] as const;

export type DirectiveName = (typeof DIRECTIVE_NAMES)[number];
