import type { DirectiveName, ScriptStep, ScriptUsage } from "./script-step.ts";

/**
 * Parses the arguments of one known directive. Returns the step, or a message saying what is wrong
 * (the caller adds the line number). `rest` is the text after the directive name, trimmed.
 */
export function parseDirective(name: DirectiveName, rest: string, line: number): ScriptStep | string {
  switch (name) {
    case "write":
    case "append": {
      const [path, text] = splitFirst(rest);
      if (path === "") return `@${name} needs a path: @${name} <path> <text>`;
      return { kind: name, line, path, text: unescapeText(text) };
    }
    case "delete":
      if (rest === "") return "@delete needs a path: @delete <path>";
      if (/\s/.test(rest)) return `@delete takes one path, got "${rest}"`;
      return { kind: "delete", line, path: rest };
    case "run":
      if (rest === "") return "@run needs a shell command: @run <command>";
      return { kind: "run", line, command: rest };
    case "say":
    case "think":
      if (rest === "") return `@${name} needs a text: @${name} <text>`;
      return { kind: name, line, text: unescapeText(rest) };
    case "usage":
      return parseUsage(rest, line);
    case "fail":
      return parseFail(rest, line);
    case "exhaust-context":
    case "max-tokens":
      if (rest !== "") return `@${name} takes no arguments, got "${rest}"`;
      return { kind: name, line };
    case "sleep":
      if (!/^\d+$/.test(rest)) return `@sleep needs a whole number of milliseconds, got "${rest}"`;
      return { kind: "sleep", line, ms: Number(rest) };
  }
}

/** In directive text, `\n` is a newline and `\\` a backslash; any other backslash is kept as is. */
export function unescapeText(text: string): string {
  return text.replace(/\\([\\n])/g, (_match, ch: string) => (ch === "n" ? "\n" : "\\"));
}

/** Splits off the first whitespace-separated word; the remainder loses its leading whitespace. */
function splitFirst(rest: string): [string, string] {
  const match = /^(\S*)\s*([\s\S]*)$/.exec(rest);
  return [match?.[1] ?? "", match?.[2] ?? ""];
}

const USAGE_FIELDS = ["input", "output", "cacheRead", "cacheWrite", "cost"] as const;
type UsageField = (typeof USAGE_FIELDS)[number];

function isUsageField(key: string): key is UsageField {
  return (USAGE_FIELDS as readonly string[]).includes(key);
}

function parseUsage(rest: string, line: number): ScriptStep | string {
  const values: Partial<Record<UsageField, number>> = {};
  for (const token of rest.split(/\s+/).filter((t) => t !== "")) {
    const eq = token.indexOf("=");
    const key = eq < 0 ? token : token.slice(0, eq);
    const raw = eq < 0 ? "" : token.slice(eq + 1);
    if (!isUsageField(key)) return `@usage: "${token}" is not a known field (${USAGE_FIELDS.join(", ")})`;
    if (values[key] !== undefined) return `@usage: ${key} is given twice`;
    const pattern = key === "cost" ? /^\d+(\.\d+)?$/ : /^\d+$/;
    if (!pattern.test(raw)) {
      const what = key === "cost" ? "a non-negative number of dollars" : "a whole number of tokens";
      return `@usage: ${key} must be ${what}, got "${raw}"`;
    }
    values[key] = Number(raw);
  }
  if (values.input === undefined || values.output === undefined) {
    return "@usage needs input=<n> and output=<n>";
  }
  const usage: ScriptUsage = {
    input: values.input,
    output: values.output,
    cacheRead: values.cacheRead ?? 0,
    cacheWrite: values.cacheWrite ?? 0,
    cost: values.cost ?? 0,
  };
  return { kind: "usage", line, usage };
}

function parseFail(rest: string, line: number): ScriptStep | string {
  let attempts: number[] | null = null;
  let text = rest;
  const [first, remainder] = splitFirst(rest);
  if (first.startsWith("attempts=")) {
    const list = first.slice("attempts=".length);
    if (!/^\d+(,\d+)*$/.test(list) || list.split(",").some((n) => Number(n) < 1)) {
      return `@fail: attempts must be a comma-separated list of attempt numbers from 1, got "${list}"`;
    }
    attempts = list.split(",").map(Number);
    text = remainder;
  }
  if (text === "") return "@fail needs an error text: @fail [attempts=1,2] <error text>";
  return { kind: "fail", line, attempts, text: unescapeText(text) };
}
