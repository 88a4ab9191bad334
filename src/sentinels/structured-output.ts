import { z } from "zod";
import type { SentinelConfig } from "../hank/schema/index.ts";

type StructuredConfig = NonNullable<SentinelConfig["structuredOutput"]>;

/**
 * A sentinel's structured output, ready to ask for and to check: the instruction the model gets with its
 * system prompt, and the check every reply passes before it is accepted. `array` outputs are arrays of
 * items matching the schema; `enum` outputs are one of the values.
 */
export interface StructuredSpec {
  readonly output: StructuredConfig["output"];
  /** Appended to the system prompt of every call. */
  readonly instruction: string;
  accept(reply: string): Accepted;
}

export type Accepted =
  | { readonly ok: true; readonly value: string | readonly unknown[] | Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly message: string };

type Compiled =
  | { readonly ok: true; readonly spec: StructuredSpec }
  | { readonly ok: false; readonly message: string };

/**
 * Compiles the configured schema. `schemaText` is `schemaStr`, or the text of `schemaFile`. A text that
 * starts with `{` is a JSON Schema; any other text is a zod expression over `z` (the reference runtime's
 * form, e.g. `z.object({ risk: z.enum(["low", "high"]) })`), evaluated with `z` as its only binding.
 * A hank's author already runs commands through rigs, so evaluating their expression widens no trust.
 */
export function compileStructured(config: StructuredConfig, schemaText: string | undefined): Compiled {
  if (config.output === "enum") return { ok: true, spec: enumSpec(config.enumValues ?? []) };
  if (schemaText === undefined)
    return { ok: false, message: "structuredOutput needs schemaStr or schemaFile" };
  const schema = schemaOf(schemaText);
  if (!schema.ok) return schema;
  return { ok: true, spec: schemaSpec(config, schema.schema, schema.jsonSchema) };
}

type SchemaOf =
  | { readonly ok: true; readonly schema: z.ZodType; readonly jsonSchema: unknown }
  | { readonly ok: false; readonly message: string };

function schemaOf(text: string): SchemaOf {
  const trimmed = text.trim();
  try {
    if (trimmed.startsWith("{")) {
      const json: unknown = JSON.parse(trimmed);
      return {
        ok: true,
        schema: z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]),
        jsonSchema: json,
      };
    }
    const evaluate = new Function("z", `"use strict"; return (${trimmed});`) as (zod: typeof z) => unknown;
    const schema = evaluate(z);
    if (!(schema instanceof z.ZodType)) {
      return { ok: false, message: "the schema expression does not evaluate to a zod schema" };
    }
    return { ok: true, schema, jsonSchema: z.toJSONSchema(schema, { unrepresentable: "any" }) };
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    return { ok: false, message: `the schema is neither a JSON Schema nor a zod expression: ${reason}` };
  }
}

function schemaSpec(config: StructuredConfig, schema: z.ZodType, jsonSchema: unknown): StructuredSpec {
  const array = config.output === "array";
  const checked = array ? z.array(schema) : schema;
  const what = array ? "a JSON array whose every item matches" : "one JSON value that matches";
  const named = config.schemaName === undefined ? "" : ` (${config.schemaName})`;
  const described = config.schemaDescription === undefined ? "" : `\n${config.schemaDescription}`;
  return {
    output: config.output,
    instruction:
      `Answer with ${what} this JSON Schema${named}, and nothing else: no prose, no code fence.` +
      `${described}\n${JSON.stringify(jsonSchema)}`,
    accept(reply) {
      const json = parseJson(reply);
      if (!json.ok) return json;
      const parsed = checked.safeParse(json.value);
      if (!parsed.success)
        return {
          ok: false,
          message: `the reply does not match the schema: ${z.prettifyError(parsed.error)}`,
        };
      const value: unknown = parsed.data;
      if (Array.isArray(value)) return { ok: true, value };
      if (typeof value === "object" && value !== null)
        return { ok: true, value: value as Record<string, unknown> };
      if (typeof value === "string") return { ok: true, value };
      return { ok: false, message: "a structured output must be a JSON object, array or string" };
    },
  };
}

function enumSpec(values: readonly string[]): StructuredSpec {
  return {
    output: "enum",
    instruction: `Answer with exactly one of these values and nothing else: ${values.join(", ")}`,
    accept(reply) {
      const answer = unfence(reply)
        .replace(/^["'`]|["'`]$/g, "")
        .trim();
      if (values.includes(answer)) return { ok: true, value: answer };
      return {
        ok: false,
        message: `the reply ${JSON.stringify(answer.slice(0, 80))} is not one of ${values.join(", ")}`,
      };
    },
  };
}

/** The reply without a surrounding Markdown code fence, which models add despite being asked not to. */
function unfence(reply: string): string {
  const fenced = /^```[\w-]*\s*\n([\s\S]*?)\n?```\s*$/.exec(reply.trim());
  return (fenced?.[1] ?? reply).trim();
}

function parseJson(
  reply: string,
): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string } {
  try {
    return { ok: true, value: JSON.parse(unfence(reply)) };
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    return { ok: false, message: `the reply is not JSON: ${reason}` };
  }
}
