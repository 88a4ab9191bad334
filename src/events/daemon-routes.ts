import { z } from "zod";
import type { LoopEvent } from "./loop-events.ts";
import { decodeLoopEvent } from "./loop-events.ts";
import {
  AdmissionReportSchema,
  AdmissionWarningSchema,
  CatalogEntrySchema,
  EndLayersSchema,
  GenerationSchema,
  InboxMessageSchema,
  LimitValuesSchema,
  LoopRunSchema,
  list,
  PartialLimitsSchema,
  RegisteredLoopSchema,
} from "./loop-records.ts";
import { ADMIT_REFUSAL_CODES, COMMAND_TYPES, LIMIT_KEYS } from "./loop-words.ts";

/**
 * The Loops daemon's HTTP API as one table: each route's method, path pattern (`:name` segments are
 * path parameters), query and body schemas, and its answers by status. The daemon validates every
 * request from it and its handlers are typed by it; the web page's client is typed from it. A route
 * exists exactly when it is in this table (a test holds the server to it).
 *
 * Contract: request bodies are read strictly (a field the route does not know is refused with
 * `unknown-field`, never ignored); queries ignore unknown keys (`?token=` authenticates an
 * EventSource). Every route may also answer 400 (`RequestErrorSchema`), 401 and 403 (`ApiErrorSchema`)
 * before its handler runs; those are not repeated per route.
 */

/** Every error answer: one sentence, and a code where a client may decide on it. */
const ApiErrorSchema = z.object({ error: z.string(), code: z.string().optional() });

/** Why a request was refused before its handler ran, one issue per problem found (all of them). */
const REQUEST_ISSUE_CODES = ["not-an-object", "unknown-field", "bad-value", "cost-field"] as const;
const RequestIssueSchema = z.object({
  code: z.enum(REQUEST_ISSUE_CODES),
  /** Where: `body.set.budget_tokens`, `query.after`, `params.id`. */
  path: z.string(),
  message: z.string(),
  hint: z.string(),
});
export const RequestErrorSchema = ApiErrorSchema.extend({
  code: z.enum(REQUEST_ISSUE_CODES),
  issues: list(RequestIssueSchema),
});

/**
 * A field named like a cost (`maxCostUsd`, `set.cost_usd`) is refused as `cost-field` rather than as
 * an unknown field: a Loop has no cost cap on any surface (cost is a meter), and the answer says so.
 */
export const COST_FIELD = {
  pattern: /cost|usd|dollar|price/i,
  message: "a Loop has no cost cap (cost is a meter)",
  hint: "bound spend with set.budget_tokens or set.iteration_cap",
} as const;

const StartBodySchema = z.strictObject({
  /** The same key twice starts one run: the second answer is the first run (200). */
  idempotencyKey: z.string().optional(),
  /** Admits a run whose admission table misses a condition; the reason is kept with the run. */
  admitAnyway: z.string().optional(),
  /** Limit overrides, whole numbers; admission lets them only tighten. */
  set: z.partialRecord(z.enum(LIMIT_KEYS), z.number().int().min(0)).optional(),
});

const IdSchema = z.object({ id: z.number() });
const RunDetailSchema = z.object({
  run: LoopRunSchema,
  generations: list(GenerationSchema),
  /** The run's inbox, oldest first. */
  messages: list(InboxMessageSchema),
  /** A terminal run's two end layers in the six kinds (null while live). */
  endLayers: EndLayersSchema.nullable(),
});
const LoopsInfoSchema = z.object({
  loops: list(RegisteredLoopSchema),
  defaults: z.object({ delivery: LimitValuesSchema, watch: LimitValuesSchema }),
  ceilings: PartialLimitsSchema,
  /** Per loop, computed by the daemon (the figures `loops ls` prints). */
  catalog: list(CatalogEntrySchema),
});
const LintSchema = z.object({
  loopId: z.string(),
  file: z.string(),
  issues: list(z.object({ path: z.string(), message: z.string(), hint: z.string() })),
  /** Null when the definition has issues (admission cannot be judged). */
  report: AdmissionReportSchema.nullable(),
});
const AdmittedSchema = z.object({
  outcome: z.literal("admitted"),
  run: LoopRunSchema,
  notices: list(AdmissionWarningSchema),
  clamped: list(z.string()),
});
const DuplicateSchema = z.object({ outcome: z.literal("duplicate"), run: LoopRunSchema });
const RefusedSchema = z.object({
  outcome: z.literal("refused"),
  code: z.enum(ADMIT_REFUSAL_CODES),
  error: z.string(),
  report: AdmissionReportSchema.nullable(),
});

/** An entry of the event log, as each `data:` line of `GET /events` carries it. */
const LoopEventEntrySchema = z.custom<LoopEvent>(
  (value) => typeof value === "object" && value !== null && isDecodable(value),
);

/** Whether `value` is an entry as the log hands it out: stamped, and known or said to be unrecognized. */
function isDecodable(value: object): boolean {
  const row = value as { seq?: unknown; runId?: unknown; at?: unknown; type?: unknown; data?: unknown };
  const { seq, runId, at, type, data } = row;
  if (typeof seq !== "number" || typeof runId !== "string" || typeof at !== "string") return false;
  if (typeof type !== "string") return false;
  return type === "unrecognized" || decodeLoopEvent({ seq, runId, at, type, data }).type === type;
}

export const DAEMON_ROUTES = {
  /** Liveness; the only route that needs no token. */
  health: {
    method: "GET",
    path: "/health",
    auth: false,
    kind: "json",
    responses: { 200: z.object({ ok: z.literal(true) }) },
  },
  /** Runs, newest first (at most 1000), of one loop with `?loop=`. */
  listRuns: {
    method: "GET",
    path: "/runs",
    auth: true,
    kind: "json",
    query: z.object({ loop: z.string().min(1).optional() }),
    responses: { 200: list(LoopRunSchema) },
  },
  /** A run with its generations, its inbox and, once it ended, its end layers. */
  getRun: {
    method: "GET",
    path: "/runs/:id",
    auth: true,
    kind: "json",
    responses: { 200: RunDetailSchema, 404: ApiErrorSchema },
  },
  /** An operator verb, recorded for the run's next boundary; 409 when the run would refuse it now. */
  sendCommand: {
    method: "POST",
    path: "/runs/:id/commands",
    auth: true,
    kind: "json",
    body: z.strictObject({
      type: z.enum(COMMAND_TYPES),
      /** `approve`: tokens or seconds added to the exceeded budget. */
      add: z.number().positive().optional(),
      comment: z.string().optional(),
      by: z.string().optional(),
    }),
    responses: { 202: IdSchema, 404: ApiErrorSchema, 409: ApiErrorSchema },
  },
  /** A note to the run's inbox, read by its next generation; 409 once the run ended. */
  addNote: {
    method: "POST",
    path: "/runs/:id/notes",
    auth: true,
    kind: "json",
    body: z.strictObject({ text: z.string().min(1), by: z.string().optional() }),
    responses: { 201: IdSchema, 404: ApiErrorSchema, 409: ApiErrorSchema },
  },
  /** Server-sent events: every run's log entries after `after` (or `Last-Event-ID`), then live. */
  events: {
    method: "GET",
    path: "/events",
    auth: true,
    kind: "sse",
    query: z.object({ after: z.coerce.number<number | string>().int().min(0).optional() }),
    responses: { 200: LoopEventEntrySchema },
  },
  /** Registered loops, the limit defaults and ceilings, and each loop's catalog figures. */
  listLoops: { method: "GET", path: "/loops", auth: true, kind: "json", responses: { 200: LoopsInfoSchema } },
  /** A registered loop's validation issues, then its admission table. */
  lintLoop: {
    method: "GET",
    path: "/loops/:id/lint",
    auth: true,
    kind: "json",
    responses: { 200: LintSchema, 404: ApiErrorSchema },
  },
  /**
   * Starts a run of a registered loop: 201 admitted, 200 the key's existing run, 422 refused by
   * admission (with its table), 400 a start admission cannot take (or a definition with errors).
   */
  startRun: {
    method: "POST",
    path: "/loops/:id/runs",
    auth: true,
    kind: "json",
    body: StartBodySchema,
    responses: {
      201: AdmittedSchema,
      200: DuplicateSchema,
      400: z.union([RefusedSchema, ApiErrorSchema]),
      404: ApiErrorSchema,
      422: RefusedSchema,
    },
  },
  /** Prometheus metrics in the text exposition format; 404 when the daemon renders none. */
  metrics: {
    method: "GET",
    path: "/metrics",
    auth: true,
    kind: "text",
    responses: { 200: z.string(), 404: ApiErrorSchema },
  },
} as const satisfies Readonly<Record<string, RouteSpec>>;

export interface RouteSpec {
  readonly method: "GET" | "POST";
  readonly path: `/${string}`;
  /** Whether the daemon's token is needed. */
  readonly auth: boolean;
  /** `json` bodies; `sse`: each `data:` line of a text/event-stream is the 200 schema; `text`: plain text. */
  readonly kind: "json" | "sse" | "text";
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** The route's own answers by HTTP status. */
  readonly responses: Readonly<Record<number, z.ZodType>>;
}

export type DaemonRoutes = typeof DAEMON_ROUTES;
export type RouteName = keyof DaemonRoutes;
export const ROUTE_NAMES = Object.keys(DAEMON_ROUTES) as readonly RouteName[];
