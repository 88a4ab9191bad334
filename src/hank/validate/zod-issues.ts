import type { z } from "zod";
import { error, type JsonPath, type ValidationIssue } from "../issues.ts";
import { LOOP_FIELDS } from "../schema/index.ts";
import { fieldOwner } from "./item-schemas.ts";
import { allowedValues, describeSchema, objectFields, walk } from "./schema-walk.ts";
import { isSecretName } from "./secrets.ts";
import { closestMatch } from "./typo-map.ts";
import { unknownFieldIssue } from "./unknown-fields.ts";
import { describeValue, expectedLabel, fieldLabel, quoteList } from "./value-text.ts";

/**
 * Turns zod issues into validation issues that read like sentences, carry the full JSON path and say
 * how to fix them. Messages written into the schema (`"At least one codon required"`) are kept; zod's
 * generic messages are replaced.
 */

type ZodIssue = z.core.$ZodIssue;

/** Marks zod's generic messages so schema-provided messages can be told apart and kept. */
const GENERIC = "\u0000generic";

export type ParseOutcome<T> = { ok: true; data: T } | { ok: false; issues: readonly ZodIssue[] };

/**
 * Parses without zod's JIT (`jitless`): a hank is parsed once per process, item by item, and zod would
 * otherwise compile a parser (`new Function`) for every object schema it meets, which costs more than
 * the one parse it speeds up (about 4 ms of a `--validate` start). The outcome is the same either way.
 */
export function parseWith<T>(schema: z.ZodType<T>, raw: unknown): ParseOutcome<T> {
  const result = schema.safeParse(raw, { reportInput: true, jitless: true, error: () => GENERIC });
  return result.success ? { ok: true, data: result.data } : { ok: false, issues: result.error.issues };
}

interface Target {
  readonly schema: z.ZodType;
  readonly raw: unknown;
  /** Where the parsed value sits in the hank file. */
  readonly prefix: JsonPath;
}

function keyPath(path: readonly PropertyKey[]): Array<string | number> {
  return path.map((p) => (typeof p === "number" ? p : String(p)));
}

export function translateZodIssues(issues: readonly ZodIssue[], target: Target): ValidationIssue[] {
  return issues.flatMap((issue) => translateOne(issue, target));
}

function translateOne(issue: ZodIssue, target: Target): ValidationIssue[] {
  const rel = keyPath(issue.path);
  const at = walk(target.schema, target.raw, rel);
  const path = [...target.prefix, ...rel];
  const custom = issue.message !== GENERIC ? issue.message : undefined;
  switch (issue.code) {
    case "unrecognized_keys": {
      const { owner, typos } = fieldOwner(at.schema);
      const fields = owner === "loop" ? LOOP_FIELDS : objectFields(at.schema, at.raw);
      return issue.keys.map((key) => unknownFieldIssue(path, key, fields, owner, typos));
    }
    case "invalid_union":
      return translateUnion(issue, rel, target, path, at.raw);
    case "invalid_type":
      return [invalidType(path, at, issue.expected, custom)];
    case "invalid_value":
      if (at.raw === undefined) return [missingField(path, at.schema, describeSchema(at.schema))];
      return [invalidValue(path, at.raw, issue.values, describeSchema(at.schema), custom)];
    case "too_small":
    case "too_big":
      return [outOfRange(issue, path, at.raw, custom)];
    default:
      return [
        error(
          codeFor(issue.code),
          path,
          custom ?? `${fieldLabel(path)} is not valid (${describeValue(at.raw)}).`,
          describeSchema(at.schema) ?? "Check the value against the hank schema.",
        ),
      ];
  }
}

function codeFor(zodCode: string): string {
  return zodCode.replaceAll("_", "-");
}

function invalidType(
  path: JsonPath,
  at: { schema: z.ZodType | undefined; raw: unknown; parentRaw: unknown },
  expected: string,
  custom: string | undefined,
): ValidationIssue {
  const label = fieldLabel(path);
  const description = describeSchema(at.schema);
  const missing = at.raw === undefined && typeof at.parentRaw === "object" && at.parentRaw !== null;
  if (missing) return missingField(path, at.schema, description);
  return error(
    "invalid-type",
    path,
    custom ?? `${label} must be ${expectedLabel(expected)}, not ${shownValue(path, at.raw)}.`,
    description === undefined ? `Change ${label} to ${expectedLabel(expected)}.` : `${label}: ${description}`,
  );
}

/** Values under a secret-looking `env` name are never echoed, only their kind. */
function shownValue(path: JsonPath, raw: unknown): string {
  const name = path.at(-1);
  const secret = path.at(-2) === "env" && typeof name === "string" && isSecretName(name);
  return secret
    ? `a ${Array.isArray(raw) ? "list" : raw === null ? "null" : typeof raw} (value hidden)`
    : describeValue(raw);
}

function missingField(
  path: JsonPath,
  schema: z.ZodType | undefined,
  description: string | undefined,
): ValidationIssue {
  const label = fieldLabel(path);
  const values = allowedValues(schema);
  if (path.at(-1) === "continuationMode") {
    return error(
      "missing-field",
      path,
      `Missing required field "continuationMode". continuationMode must be either 'fresh' or 'continue-previous'.`,
      `Add "continuationMode": "fresh" to start a new session, or "continue-previous" to resume the previous codon's session.`,
    );
  }
  const choice = values === undefined ? "" : ` (one of ${quoteList(values)})`;
  return error(
    "missing-field",
    path,
    `Missing required field ${label}${choice}.`,
    description === undefined ? `Add ${label}.` : `Add ${label}: ${description}`,
  );
}

function invalidValue(
  path: JsonPath,
  raw: unknown,
  values: readonly unknown[],
  description: string | undefined,
  custom: string | undefined,
): ValidationIssue {
  if (raw === undefined) {
    return error(
      "missing-field",
      path,
      `Missing required field ${fieldLabel(path)} (one of ${quoteList(values)}).`,
      description ?? `Add ${fieldLabel(path)}.`,
    );
  }
  const near = typeof raw === "string" ? closestMatch(raw, values.map(String)) : undefined;
  const didYouMean = near === undefined ? "" : ` Did you mean "${near}"?`;
  if (path.at(-1) === "continuationMode") {
    return error(
      "invalid-continuation-mode",
      path,
      `continuationMode must be either 'fresh' or 'continue-previous', not ${describeValue(raw)}.`,
      `Use "fresh" to start a new session or "continue-previous" to resume the previous codon's session.${didYouMean}`,
    );
  }
  const allowed = values.length === 1 ? `be ${quoteList(values)}` : `be one of ${quoteList(values)}`;
  return error(
    "invalid-value",
    path,
    custom ?? `${fieldLabel(path)} must ${allowed}, not ${describeValue(raw)}.`,
    `Use ${quoteList(values)}.${didYouMean}`,
  );
}

/** Special codes for the range checks the reference names. */
function rangeCode(path: JsonPath, small: boolean): string {
  const last = path.at(-1);
  if (small && path.length === 1 && last === "hank") return "empty-hank";
  if (small && last === "codons") return "empty-loop";
  if (last === "limit" && path.at(-2) === "terminateOn") return "invalid-iteration-limit";
  return small ? "too-small" : "too-big";
}

function outOfRange(
  issue: Extract<ZodIssue, { code: "too_small" | "too_big" }>,
  path: JsonPath,
  raw: unknown,
  custom: string | undefined,
): ValidationIssue {
  const small = issue.code === "too_small";
  const bound = Number(small ? issue.minimum : issue.maximum);
  const label = fieldLabel(path);
  const code = rangeCode(path, small);
  const inclusive = issue.inclusive !== false;
  let message: string;
  let hint: string;
  if (issue.origin === "array" || issue.origin === "string" || issue.origin === "set") {
    const unit = issue.origin === "string" ? "character" : "item";
    const word = small ? "at least" : "at most";
    message =
      small && bound === 1 && issue.origin === "string"
        ? `${label} must not be empty.`
        : `${label} must contain ${word} ${bound} ${unit}${bound === 1 ? "" : "s"}.`;
    hint = small ? `Give ${label} ${word} ${bound} ${unit}${bound === 1 ? "" : "s"}.` : `Shorten ${label}.`;
  } else {
    const relation = small ? (inclusive ? "at least" : "greater than") : inclusive ? "at most" : "less than";
    message = `${label} must be ${relation} ${bound}, not ${describeValue(raw)}.`;
    hint = `Set ${label} to a value ${relation} ${bound}.`;
  }
  if (code === "empty-hank") hint = 'Add at least one codon to the "hank" array.';
  if (code === "empty-loop") hint = 'Add at least one codon to the loop\'s "codons" array.';
  return error(code, path, custom ?? message, hint);
}

function translateUnion(
  issue: Extract<ZodIssue, { code: "invalid_union" }>,
  rel: ReadonlyArray<string | number>,
  target: Target,
  path: JsonPath,
  raw: unknown,
): ValidationIssue[] {
  if (issue.discriminator !== undefined || issue.errors.length === 0) {
    const options = "options" in issue ? (issue.options ?? []) : [];
    return [invalidValue(path, raw, options, undefined, undefined)];
  }
  const plausible = issue.errors
    .filter((branch) => !branch.some((i) => i.path.length === 0 && i.code === "invalid_type"))
    .sort((a, b) => a.length - b.length);
  const branch = plausible[0];
  if (branch !== undefined) {
    return branch.flatMap((inner) => translateOne({ ...inner, path: [...rel, ...inner.path] }, target));
  }
  const expected = issue.errors
    .flat()
    .filter(
      (i): i is Extract<ZodIssue, { code: "invalid_type" }> =>
        i.code === "invalid_type" && i.path.length === 0,
    )
    .map((i) => expectedLabel(i.expected));
  const unique = [...new Set(expected)];
  const label = fieldLabel(path);
  const wanted = unique.length > 0 ? unique.join(" or ") : "a valid value";
  return [
    error(
      "invalid-type",
      path,
      `${label} must be ${wanted}, not ${describeValue(raw)}.`,
      `Change ${label} to ${wanted}.`,
    ),
  ];
}
