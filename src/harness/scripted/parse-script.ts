import { distance } from "fastest-levenshtein";
import { takeConditions } from "./parse-condition.ts";
import { parseDirective } from "./parse-directive.ts";
import {
  DIRECTIVE_NAMES,
  type DirectiveName,
  type ParsedScript,
  type ScriptError,
  type ScriptStep,
  type StepBody,
  type StepCondition,
} from "./script-step.ts";

/**
 * Parses a scripted prompt (pure). A line whose first non-blank character is `@` followed by a
 * directive name and whitespace or the line's end is a directive; every other non-blank line is prose,
 * and consecutive prose lines (blank lines skipped) become one assistant message. A `@name` that is
 * not a directive but is within a typo's reach of one (`@wirte`) is an error, so a misspelt directive
 * never passes silently as prose; any other `@word` line (`@team, please…`) stays prose, so any prompt
 * can be dry-run. Every bad line is reported, not only the first.
 */
export function parseScript(prompt: string): ParsedScript {
  const steps: ScriptStep[] = [];
  const errors: ScriptError[] = [];
  let prose: { line: number; lines: string[] } | undefined;
  const flushProse = (): void => {
    if (prose) steps.push({ kind: "prose", text: prose.lines.join("\n"), line: prose.line });
    prose = undefined;
  };
  const lines = prompt.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    const text = raw.trimEnd();
    if (text.trim() === "") continue;
    const directive = classifyLine(text.trimStart());
    if (directive.type === "prose") {
      if (prose) prose.lines.push(text);
      else prose = { line, lines: [text] };
      continue;
    }
    flushProse();
    if (directive.type === "unknown") {
      errors.push({
        line,
        message: `Unknown directive @${directive.name}; did you mean @${directive.suggestion}?`,
      });
      continue;
    }
    const parsed = parseDirectiveLine(directive.name, directive.rest);
    if (typeof parsed === "string") errors.push({ line, message: parsed });
    // The body is a fresh object: giving it its line in place is cheaper than copying it.
    else steps.push(Object.assign(parsed, { line }));
  }
  flushProse();
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, steps, hasUsage: steps.some((step) => step.kind === "usage") };
}

/** A directive's conditions, then its own arguments. */
function parseDirectiveLine(
  name: DirectiveName,
  rest: string,
): (StepBody & { readonly when?: StepCondition }) | string {
  const taken = takeConditions(name, rest);
  if (typeof taken === "string") return taken;
  const body = parseDirective(name, taken.rest);
  if (typeof body === "string") return body;
  return taken.when === undefined ? body : Object.assign(body, { when: taken.when });
}

/** One message for a failed outcome: every bad line with its number. */
export function formatScriptErrors(errors: readonly ScriptError[]): string {
  const list = errors.map((e) => `line ${e.line}: ${e.message}`).join("; ");
  return `Bad scripted prompt (${errors.length} ${errors.length === 1 ? "error" : "errors"}): ${list}`;
}

type LineClass =
  | { type: "prose" }
  | { type: "directive"; name: DirectiveName; rest: string }
  | { type: "unknown"; name: string; suggestion: DirectiveName };

function classifyLine(text: string): LineClass {
  const head = /^@([A-Za-z][\w-]*)(?=\s|$)/.exec(text);
  const name = head?.[1];
  if (head === null || name === undefined) return { type: "prose" };
  const known = DIRECTIVE_NAMES.find((d) => d === name);
  if (known) return { type: "directive", name: known, rest: text.slice(head[0].length).trim() };
  const suggestion = nearestDirective(name);
  return suggestion ? { type: "unknown", name, suggestion } : { type: "prose" };
}

/** The directive a misspelt name most likely meant: case differences, or up to 1 edit (2 from 5 letters). */
function nearestDirective(name: string): DirectiveName | undefined {
  const lower = name.toLowerCase();
  const reach = lower.length >= 5 ? 2 : 1;
  let best: { name: DirectiveName; d: number } | undefined;
  for (const candidate of DIRECTIVE_NAMES) {
    const d = distance(lower, candidate);
    if (d <= reach && (best === undefined || d < best.d)) best = { name: candidate, d };
  }
  return best?.name;
}
