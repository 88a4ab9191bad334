import type { StepBody, ToolCallSketch } from "./script-step.ts";

/** Argument parsers shared by several directives: usage fields and named tool calls. */

const USAGE_FIELDS = ["input", "output", "cacheRead", "cacheWrite", "cost"] as const;
type UsageField = (typeof USAGE_FIELDS)[number];

function isUsageField(key: string): key is UsageField {
  return (USAGE_FIELDS as readonly string[]).includes(key);
}

/** `@usage input=<n> output=<n> [cacheRead=<n>] [cacheWrite=<n>] [cost=<usd>]`, in any order. */
export function parseUsage(rest: string): StepBody | string {
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
  return {
    kind: "usage",
    usage: {
      input: values.input,
      output: values.output,
      cacheRead: values.cacheRead ?? 0,
      cacheWrite: values.cacheWrite ?? 0,
      cost: values.cost ?? 0,
    },
  };
}

const CALL_TOOLS = ["write", "append", "delete", "run"] as const;

/** `<tool> <path or command>`: the tool as its directive name, then a path (file tools) or a command. */
export function parseToolCall(directive: string, text: string): ToolCallSketch | string {
  const [tool, argument] = splitFirst(text);
  const known = CALL_TOOLS.find((t) => t === tool);
  const usage = `@${directive} ${directive === "max-tokens" ? "[continue] " : ""}<write|append|delete|run> <path or command>`;
  if (known === undefined)
    return `@${directive}: "${tool}" is not a tool (write, append, delete, run): ${usage}`;
  if (argument === "")
    return `@${directive} ${known} needs ${known === "run" ? "a command" : "a path"}: ${usage}`;
  if (known !== "run" && /\s/.test(argument))
    return `@${directive} ${known} takes one path, got "${argument}"`;
  return { tool: known, argument };
}

/** Splits off the first whitespace-separated word; the remainder loses its leading whitespace. */
export function splitFirst(rest: string): [string, string] {
  const end = rest.search(/\s/);
  if (end < 0) return [rest, ""];
  return [rest.slice(0, end), rest.slice(end).trimStart()];
}
