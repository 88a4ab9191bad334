import { z } from "zod";
import { type JsonPath, type ValidationIssue, warning } from "../issues.ts";
import { HankFile } from "../schema/index.ts";
import { isRecord } from "./hank-view.ts";
import { pickOption, unwrapSchema } from "./schema-walk.ts";
import { closestMatch } from "./typo-map.ts";

/**
 * Unknown fields in the nested objects the reference runtime does not treat strictly (rig operations,
 * `beforeCopy` commands, `retryConfig`, `terminateOn`, `requirements`): the run drops them, as the
 * reference does, so they are warnings, not errors; the hint says where the field probably belongs.
 * Strict objects are left to the schema stage, which reports their unknown fields as errors.
 */
export function checkIgnoredFields(raw: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  visit(HankFile, raw, [], issues);
  return issues;
}

function visit(schema: z.ZodType, raw: unknown, path: JsonPath, issues: ValidationIssue[]): void {
  let current = unwrapSchema(schema);
  if (current instanceof z.ZodUnion) {
    const picked = pickOption(current.options as readonly z.ZodType[], raw);
    if (picked === undefined) return;
    current = picked;
  }
  if (current instanceof z.ZodArray && Array.isArray(raw)) {
    for (const [index, item] of raw.entries())
      visit(current.element as z.ZodType, item, [...path, index], issues);
  } else if (current instanceof z.ZodRecord && isRecord(raw)) {
    for (const [key, value] of Object.entries(raw))
      visit(current.valueType as z.ZodType, value, [...path, key], issues);
  } else if (current instanceof z.ZodObject && isRecord(raw)) {
    visitObject(current, raw, path, issues);
  }
}

function visitObject(
  schema: z.ZodObject,
  raw: Record<string, unknown>,
  path: JsonPath,
  issues: ValidationIssue[],
): void {
  const shape: Record<string, z.ZodType> = schema.shape;
  const lenient = schema._zod.def.catchall === undefined;
  for (const [key, value] of Object.entries(raw)) {
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (field !== undefined) visit(field, value, [...path, key], issues);
    else if (lenient) issues.push(ignoredField(shape, raw, key, [...path, key]));
  }
}

function ignoredField(
  shape: Record<string, z.ZodType>,
  raw: Record<string, unknown>,
  key: string,
  path: JsonPath,
): ValidationIssue {
  return warning(
    "ignored-field",
    path,
    `Unknown field "${key}" is ignored, as the reference runtime does.`,
    placementHint(shape, raw, key),
  );
}

/** Where the field probably belongs: inside a sibling object that has it, or a field of a close name. */
function placementHint(shape: Record<string, z.ZodType>, raw: Record<string, unknown>, key: string): string {
  for (const [name, field] of Object.entries(shape)) {
    const inner = unwrapSchema(field);
    const options = inner instanceof z.ZodUnion ? (inner.options as readonly z.ZodType[]) : [inner];
    const holder = options
      .map(unwrapSchema)
      .find((o): o is z.ZodObject => o instanceof z.ZodObject && Object.hasOwn(o.shape, key));
    if (holder !== undefined) return `Move it into "${name}": "${name}": { "${key}": ... }, or remove it.`;
  }
  const fields = Object.keys(shape);
  const near = closestMatch(key, fields);
  if (near !== undefined && !Object.hasOwn(raw, near))
    return `Did you mean "${near}"? Rename it, or remove it.`;
  return `Remove it; the fields here are: ${fields.join(", ")}.`;
}
