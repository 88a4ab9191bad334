import type { z } from "zod";
import { error, formatJsonPath, type JsonPath, type ValidationIssue } from "../../hank/issues.ts";
import { closestMatch } from "../../hank/validate/typo-map.ts";
import { describeValue, expectedLabel, quoteList } from "../../hank/validate/value-text.ts";

/**
 * Turns zod's issues on a loop definition into issues that name the TOML path, say what is wrong in a
 * sentence and how to fix it. Every issue is reported, never only the first.
 */

type ZodIssue = z.core.$ZodIssue;

/** Keys that ask for a dollar cap: refused with the reason, since cost is a meter and never a cap. */
const COST_KEY = /(cost|usd|dollar|price|spend)/i;

export function translateDefinitionIssues(
  issues: readonly ZodIssue[],
  schema: z.ZodType,
  raw: unknown,
  file: string,
): ValidationIssue[] {
  return issues.flatMap((issue) => translate(issue, schema, raw)).map((issue) => ({ ...issue, file }));
}

function translate(issue: ZodIssue, root: z.ZodType, raw: unknown): ValidationIssue[] {
  const path = issue.path.map((p) => (typeof p === "number" ? p : String(p)));
  const label = tomlPath(path);
  const value = valueAt(raw, path);
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) => unknownKey([...path, key], fieldsAt(root, raw, path)));
    case "invalid_type":
      if (value === undefined) return [missing(path)];
      return [
        error(
          "invalid-type",
          path,
          `${label} must be ${expectedLabel(issue.expected)}, not ${describeValue(value)}.`,
          `Change ${label} to ${expectedLabel(issue.expected)}.`,
        ),
      ];
    case "invalid_value": {
      if (value === undefined) return [missing(path)];
      const options = issue.values.map(String);
      const near = typeof value === "string" ? closestMatch(value, options) : undefined;
      return [
        error(
          "invalid-value",
          path,
          `${label} must be one of ${quoteList(options)}, not ${describeValue(value)}.`,
          near === undefined ? `Use one of ${quoteList(options)}.` : `Did you mean "${near}"?`,
        ),
      ];
    }
    case "invalid_union":
      return [unionIssue(path, value)];
    case "too_small":
    case "too_big":
      return [range(issue, path, value)];
    default:
      return [
        error(
          issue.code.replaceAll("_", "-"),
          path,
          `${label}: ${issue.message}.`,
          fixOf(issue, label, value),
        ),
      ];
  }
}

/**
 * What to change, never the message again: a value that fails a pattern gets the nearest value that
 * passes it (`My Loop` → `my-loop`) when there is one.
 */
function fixOf(issue: ZodIssue, label: string, value: unknown): string {
  const written = issue.code === "invalid_format" && issue.format === "regex" ? issue.pattern : undefined;
  if (written === undefined) return "Check the value against the loop schema.";
  const nearest = typeof value === "string" ? slug(value) : "";
  if (nearest !== "" && patternOf(written).test(nearest)) return `Change ${label} to "${nearest}".`;
  return `Change ${label} to a value that matches ${written}.`;
}

/** zod writes a regex check's pattern as the literal (`/^[a-z]+$/`). */
function patternOf(written: string): RegExp {
  const literal = /^\/(.*)\/([a-z]*)$/.exec(written);
  return literal === null ? new RegExp(written) : new RegExp(literal[1] ?? "", literal[2]);
}

/** Lowercase, with every run of other characters turned into one '-', and no '-' at either end. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** A path as TOML readers write it: `contract.budget.tokens`, `gates[1].run`. */
export function tomlPath(path: JsonPath): string {
  return formatJsonPath(path);
}

function missing(path: JsonPath): ValidationIssue {
  const label = tomlPath(path);
  return error("missing-field", path, `Missing required field ${label}.`, `Add ${label}.`);
}

function unknownKey(path: JsonPath, fields: readonly string[]): ValidationIssue {
  const key = String(path.at(-1));
  const label = tomlPath(path);
  if (COST_KEY.test(key)) {
    return error(
      "cost-is-a-meter",
      path,
      `${label} asks for a cost cap, but cost is a meter, never a cap, at the Loop level.`,
      "Bound spend with contract.iteration_cap and contract.budget.tokens; the body hank's own dollar budgets still bound its codons.",
    );
  }
  const near = closestMatch(key, fields);
  const known = fields.length === 0 ? "" : ` Known fields here: ${fields.join(", ")}.`;
  return error(
    "unknown-field",
    path,
    `Unknown field ${label}.`,
    near === undefined ? `Remove it.${known}` : `Did you mean "${near}"?`,
  );
}

/** A gate whose `kind` names no gate kind (zod reports it at the gate or at its `kind`). */
function unionIssue(path: JsonPath, value: unknown): ValidationIssue {
  const atKind = path.at(-1) === "kind";
  const kind = atKind
    ? value
    : typeof value === "object" && value !== null
      ? (value as { kind?: unknown }).kind
      : undefined;
  const kindPath = atKind ? path : [...path, "kind"];
  const options = ["command", "judge", "human"];
  const near = typeof kind === "string" ? closestMatch(kind, options) : undefined;
  return error(
    kind === undefined ? "missing-field" : "invalid-value",
    kindPath,
    kind === undefined
      ? `Missing required field ${tomlPath(kindPath)} (one of ${quoteList(options)}).`
      : `${tomlPath(kindPath)} must be one of ${quoteList(options)}, not ${describeValue(kind)}.`,
    near === undefined ? `Set kind to ${quoteList(options)}.` : `Did you mean "${near}"?`,
  );
}

function range(
  issue: Extract<ZodIssue, { code: "too_small" | "too_big" }>,
  path: JsonPath,
  value: unknown,
): ValidationIssue {
  const small = issue.code === "too_small";
  const bound = Number(small ? issue.minimum : issue.maximum);
  const label = tomlPath(path);
  const unit = issue.origin === "array" ? " item(s)" : issue.origin === "string" ? " character(s)" : "";
  const relation = small ? "at least" : "at most";
  const shown = issue.origin === "array" || issue.origin === "string" ? "" : `, not ${describeValue(value)}`;
  return error(
    small ? "too-small" : "too-big",
    path,
    `${label} must be ${relation} ${bound}${unit}${shown}.`,
    `Set ${label} to ${relation} ${bound}${unit}.`,
  );
}

function valueAt(raw: unknown, path: JsonPath): unknown {
  let current: unknown = raw;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

interface SchemaNode {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
}

function nodeOf(schema: z.ZodType): SchemaNode {
  return (schema as unknown as { def: SchemaNode }).def;
}

/** The field names the schema allows at `path` (for "did you mean"). */
function fieldsAt(root: z.ZodType, raw: unknown, path: JsonPath): string[] {
  let schema: z.ZodType | undefined = root;
  let value: unknown = raw;
  for (const key of [...path, undefined]) {
    schema = unwrap(schema, value);
    if (schema === undefined) return [];
    if (key === undefined) break;
    const node = nodeOf(schema);
    schema = node.type === "object" ? node.shape?.[String(key)] : node.element;
    value = valueAt(value, [key]);
  }
  const node = schema === undefined ? undefined : nodeOf(schema);
  return node?.type === "object" ? Object.keys(node.shape ?? {}) : [];
}

function unwrap(schema: z.ZodType | undefined, value: unknown): z.ZodType | undefined {
  let current = schema;
  while (current !== undefined) {
    const node = nodeOf(current);
    if (node.innerType !== undefined) current = node.innerType;
    else if (node.type === "union") current = pickOption(node.options ?? [], value);
    else return current;
  }
  return undefined;
}

/** The member of a `kind`-discriminated union the value names. */
function pickOption(options: readonly z.ZodType[], value: unknown): z.ZodType | undefined {
  const kind = typeof value === "object" && value !== null ? (value as { kind?: unknown }).kind : undefined;
  return options.find((option) => {
    const shape = nodeOf(option).shape;
    const literal = shape?.kind === undefined ? undefined : nodeOf(shape.kind);
    return (literal as { values?: readonly unknown[] } | undefined)?.values?.includes(kind) === true;
  });
}
