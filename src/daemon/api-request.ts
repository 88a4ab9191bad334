import type { IncomingMessage } from "node:http";
import { z } from "zod";
import type { ParsedRequest } from "../events/daemon-route-types.ts";
import {
  COST_FIELD,
  DAEMON_ROUTES,
  type RequestErrorSchema,
  type RouteName,
  type RouteSpec,
} from "../events/daemon-routes.ts";
import { formatJsonPath, type JsonPath } from "../hank/issues.ts";

/**
 * Reads a request against its route's schemas: the query and, for a route with a body, the JSON body.
 * Every problem is reported at once, each with its JSON path (`body.set.budget_tokens`), what is
 * wrong and how to fix it; the answer's `code` is the first issue's (a cost field first of all).
 */

type RequestIssue = z.output<typeof RequestErrorSchema>["issues"][number];
type RequestError = z.output<typeof RequestErrorSchema>;

const MAX_BODY = 64 * 1024;
const DOCS = 'see docs/loops.md, "The daemon\'s HTTP API"';

export type ReadResult<N extends RouteName> =
  | { readonly ok: true; readonly request: ParsedRequest<N> }
  | { readonly ok: false; readonly error: RequestError };

export async function readRequest<N extends RouteName>(
  name: N,
  params: Readonly<Record<string, string>>,
  url: URL,
  raw: IncomingMessage,
): Promise<ReadResult<N>> {
  const route: RouteSpec = DAEMON_ROUTES[name];
  const issues: RequestIssue[] = [];
  const query = parsePart(route.query, Object.fromEntries(url.searchParams), "query", issues);
  let body: unknown;
  if (route.body !== undefined) {
    const text = await readText(raw);
    const json = text === undefined ? undefined : parseJson(text);
    if (json === undefined) issues.push(notAnObject(text === undefined ? "larger than 64 KiB" : "not JSON"));
    else body = parsePart(route.body, json.value, "body", issues);
  }
  if (issues.length > 0) return { ok: false, error: requestError(issues) };
  // The parts were parsed by the route's own schemas: they are what `ParsedRequest<N>` says.
  return { ok: true, request: { params, query, body } as ParsedRequest<N> };
}

function parsePart(schema: z.ZodType | undefined, value: unknown, where: string, issues: RequestIssue[]) {
  if (schema === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  issues.push(...issuesOf(schema, parsed.error.issues, where));
  return undefined;
}

function issuesOf(schema: z.ZodType, found: readonly z.core.$ZodIssue[], where: string): RequestIssue[] {
  return found.flatMap((issue) => issueOf(schema, issue, where));
}

function issueOf(schema: z.ZodType, issue: z.core.$ZodIssue, where: string): RequestIssue[] {
  const path: JsonPath = [where, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
  const bad = (message: string, hint: string): RequestIssue[] => [
    { code: "bad-value", path: formatJsonPath(path), message, hint },
  ];
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) => unknownField(schema, issue.path, formatJsonPath([...path, key]), key));
    case "invalid_type":
      if (issue.path.length === 0 && issue.expected === "object") return [notAnObject("not an object")];
      return bad(`must be ${issue.expected}`, `give a ${issue.expected}`);
    case "invalid_value":
      return bad("is not one of the allowed values", `use one of ${issue.values.map(String).join(", ")}`);
    case "too_small":
      return bad(issue.message, `give ${issue.origin === "string" ? "a longer string" : "a larger number"}`);
    default:
      return bad(issue.message, DOCS);
  }
}

/** A field the route does not know: `cost-field` when it is named like a cost, else `unknown-field`. */
function unknownField(
  schema: z.ZodType,
  at: readonly PropertyKey[],
  path: string,
  key: string,
): RequestIssue {
  if (COST_FIELD.pattern.test(key)) {
    return { code: "cost-field", path, message: COST_FIELD.message, hint: COST_FIELD.hint };
  }
  const hint = `remove it; the fields are ${fieldsAt(schema, at).join(", ")}`;
  return { code: "unknown-field", path, message: "not a field of this request", hint };
}

/** The field names a strict object (or a record keyed by an enum) at `path` of `schema` knows. */
function fieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: unknown = schema;
  for (const key of path) node = childOf(node, key);
  node = shapeOf(node);
  if (node instanceof z.ZodObject) return Object.keys(node.shape);
  if (node instanceof z.ZodRecord && node.keyType instanceof z.ZodEnum)
    return node.keyType.options.map(String);
  return [];
}

function childOf(node: unknown, key: PropertyKey): unknown {
  const inner = shapeOf(node);
  if (inner instanceof z.ZodObject) return inner.shape[String(key)];
  if (inner instanceof z.ZodRecord) return inner.valueType;
  return undefined;
}

function shapeOf(node: unknown): unknown {
  return node instanceof z.ZodOptional ? shapeOf(node.unwrap()) : node;
}

function notAnObject(what: string): RequestIssue {
  return { code: "not-an-object", path: "body", message: `the body is ${what}`, hint: "send a JSON object" };
}

function requestError(issues: readonly RequestIssue[]): RequestError {
  const first = issues.find((i) => i.code === "cost-field") ?? issues[0];
  const error = issues.map((i) => `${i.path}: ${i.message} (${i.hint})`).join("; ");
  return { code: first?.code ?? "bad-value", error, issues };
}

async function readText(raw: IncomingMessage): Promise<string | undefined> {
  let text = "";
  for await (const chunk of raw) {
    text += String(chunk);
    if (text.length > MAX_BODY) return undefined;
  }
  return text;
}

function parseJson(text: string): { readonly value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}
