import type { JsonPath } from "../issues.ts";
import { secretShape } from "./secrets.ts";

/** Short phrases for values and types in messages. */

const MAX_SHOWN = 40;

/**
 * The value as a message shows it: `5`, `"x"` (strings quoted), `an array`, `null`, `missing`. A string
 * shaped like a credential is never shown, only what it looks like.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string": {
      const secret = secretShape(value);
      if (secret !== undefined) return `a string that looks like ${secret} (value hidden)`;
      const shown = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
      return JSON.stringify(shown);
    }
    case "number":
    case "boolean":
    case "bigint":
      return String(value);
    case "object":
      return "an object";
    default:
      return `a ${typeof value}`;
  }
}

const EXPECTED: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  record: "an object",
  array: "an array",
  null: "null",
};

/** zod's expected type name as a phrase: `int` → `an integer`. */
export function expectedLabel(expected: string): string {
  return (Object.hasOwn(EXPECTED, expected) ? EXPECTED[expected] : undefined) ?? `of type ${expected}`;
}

/** The field a path ends at, quoted: `"model"`, or `"rigSetup[0]"` for an array element. */
export function fieldLabel(path: JsonPath): string {
  const last = path.at(-1);
  if (last === undefined) return "the hank file";
  if (typeof last === "string") return `"${last}"`;
  const parent = path.at(-2);
  return typeof parent === "string" ? `"${parent}[${last}]"` : `item ${last}`;
}

/** `"a", "b", "c"` */
export function quoteList(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(", ");
}

/** Line count of a text: a trailing newline does not start a new line; empty text has 0 lines. */
export function countLines(text: string): number {
  if (text === "") return 0;
  const lines = text.split(/\r?\n/);
  return text.endsWith("\n") ? lines.length - 1 : lines.length;
}
