import { z } from "zod";
import { isRecord } from "./hank-view.ts";

/**
 * Finds the sub-schema a zod issue path points at, so messages can name the valid fields of the
 * object, the allowed values of an enum and the field's documented meaning. Unions are resolved with
 * the raw value (the option whose discriminator literal matches), the way zod itself chose.
 */

type Segment = PropertyKey;

/** Strips optional/default/nullable wrappers. */
export function unwrapSchema(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (let depth = 0; depth < 10; depth++) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable)
      current = current.unwrap() as z.ZodType;
    else if (current instanceof z.ZodDefault) current = current.unwrap() as z.ZodType;
    else return current;
  }
  return current;
}

/** Whether a discriminator field accepts the value; an absent value fits an optional field. */
function literalAccepts(schema: z.ZodType | undefined, value: unknown): boolean {
  if (schema === undefined) return false;
  if (value === undefined && schema.safeParse(undefined).success) return true;
  const inner = unwrapSchema(schema);
  return inner instanceof z.ZodLiteral && inner.values.has(value as never);
}

/** The union option that matches the raw value's shape (and its `type`/`strategy` literal, if any). */
export function pickOption(options: readonly z.ZodType[], raw: unknown): z.ZodType | undefined {
  const unwrapped = options.map(unwrapSchema);
  if (Array.isArray(raw)) return unwrapped.find((o) => o instanceof z.ZodArray);
  if (!isRecord(raw)) return undefined;
  const objects = unwrapped.filter((o): o is z.ZodObject => o instanceof z.ZodObject);
  for (const key of ["type", "strategy"]) {
    const match = objects.find((o) => Object.hasOwn(o.shape, key) && literalAccepts(o.shape[key], raw[key]));
    if (match !== undefined) return match;
  }
  return objects[0] ?? unwrapped.find((o) => o instanceof z.ZodRecord);
}

/** One step down: the schema of `segment` inside `schema`, given the raw value at `schema`. */
export function childSchema(schema: z.ZodType, segment: Segment, raw: unknown): z.ZodType | undefined {
  let current = unwrapSchema(schema);
  if (current instanceof z.ZodUnion) {
    const picked = pickOption(current.options as readonly z.ZodType[], raw);
    if (picked === undefined) return undefined;
    current = picked;
  }
  if (current instanceof z.ZodObject && typeof segment === "string") {
    return Object.hasOwn(current.shape, segment) ? current.shape[segment] : undefined;
  }
  if (current instanceof z.ZodArray && typeof segment === "number") return current.element as z.ZodType;
  if (current instanceof z.ZodRecord && typeof segment === "string") return current.valueType as z.ZodType;
  return undefined;
}

/** The raw value one step down, or undefined. */
export function childValue(raw: unknown, segment: Segment): unknown {
  if (Array.isArray(raw) && typeof segment === "number") return raw[segment];
  if (isRecord(raw) && typeof segment === "string")
    return Object.hasOwn(raw, segment) ? raw[segment] : undefined;
  return undefined;
}

/** The schema and raw value at `path`; the schema is undefined when the path leaves the schema. */
export function walk(
  schema: z.ZodType,
  raw: unknown,
  path: readonly Segment[],
): { schema: z.ZodType | undefined; raw: unknown; parentRaw: unknown } {
  let current: z.ZodType | undefined = schema;
  let value = raw;
  let parent: unknown;
  for (const segment of path) {
    current = current === undefined ? undefined : childSchema(current, segment, value);
    parent = value;
    value = childValue(value, segment);
  }
  return { schema: current, raw: value, parentRaw: parent };
}

/** The fields of the object schema at a node (union resolved with the raw value). */
export function objectFields(schema: z.ZodType | undefined, raw: unknown): string[] {
  if (schema === undefined) return [];
  let current = unwrapSchema(schema);
  if (current instanceof z.ZodUnion)
    current = pickOption(current.options as readonly z.ZodType[], raw) ?? current;
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

/** The allowed values of an enum or literal schema, or undefined. */
export function allowedValues(schema: z.ZodType | undefined): readonly unknown[] | undefined {
  if (schema === undefined) return undefined;
  const inner = unwrapSchema(schema);
  if (inner instanceof z.ZodEnum) return inner.options;
  if (inner instanceof z.ZodLiteral) return [...inner.values];
  return undefined;
}

/** The documented meaning of a field (`.describe(...)`), looking through wrappers. */
export function describeSchema(schema: z.ZodType | undefined): string | undefined {
  if (schema === undefined) return undefined;
  return schema.description ?? unwrapSchema(schema).description;
}
