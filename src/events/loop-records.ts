import { z } from "zod";
import {
  BLOCKED_BY_DEPENDENCY,
  PARK_REASONS,
  RUN_STATES,
  TERMINAL_CAUSES,
  type TerminalCause,
} from "./loop-run-states.ts";
import {
  ADMISSION_WARNING_CODES,
  CONDITIONS,
  END_KINDS,
  GATE_VERDICTS,
  GENERATION_STATES,
  LIMIT_KEYS,
  LOOP_KINDS,
  MESSAGE_KINDS,
  TRIGGER_KINDS,
} from "./loop-words.ts";

/**
 * The Loops records as they cross the daemon's HTTP API (and its event log): what a client may rely
 * on. A record the daemon sends may carry more fields than these (leases, directories); the schemas
 * name the promise, and the daemon's handlers are type-checked against it.
 */

/** A read-only array: the records are handed out, never edited in place. */
export const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();

export const ALL_CAUSES = Object.values(TERMINAL_CAUSES).flat() as readonly TerminalCause[];
type ParkReasonName = (typeof PARK_REASONS)[keyof typeof PARK_REASONS][number];
export const ALL_PARK_REASONS = Object.values(PARK_REASONS).flat() as readonly ParkReasonName[];

export const RunStateSchema = z.enum(RUN_STATES);
export const TerminalCauseSchema = z.enum(ALL_CAUSES as [TerminalCause, ...TerminalCause[]]);
const ParkReasonSchema = z.enum(ALL_PARK_REASONS as [ParkReasonName, ...ParkReasonName[]]);
export const LimitValuesSchema = z.record(z.enum(LIMIT_KEYS), z.number());
export const PartialLimitsSchema = z.partialRecord(z.enum(LIMIT_KEYS), z.number());
const EndKindSchema = z.enum(END_KINDS);

const MetersSchema = z.object({
  generations: z.number(),
  tokens: z.number(),
  /** False once any body or judge reported no usage: `tokens` is then a lower bound. */
  tokensKnown: z.boolean(),
  /** Milliseconds spent in `running`. */
  runningMs: z.number(),
  noProgress: z.number(),
  costUsd: z.number(),
  costKnown: z.boolean(),
});

const AmendmentSchema = z.object({
  budget: z.enum(["tokens", "wall_clock"]),
  add: z.number(),
  by: z.string(),
  at: z.string(),
});

export const AdmissionWarningSchema = z.object({
  code: z.enum(ADMISSION_WARNING_CODES),
  message: z.string(),
  refuses: z.boolean().optional(),
});

/** The pinned contract, as far as a client shows it. */
const ContractSchema = z.object({
  loopId: z.string(),
  name: z.string(),
  kind: z.enum(LOOP_KINDS),
  owner: z.string().nullable(),
  goal: z.string(),
  definitionOfDone: z.string().nullable(),
  limits: LimitValuesSchema,
  clamped: list(z.string()),
  onExceeded: z.enum(["halt", "escalate"]),
  gates: list(z.object({ id: z.string(), kind: z.enum(["command", "judge", "human"]) })),
  admittedAnyway: z.string().nullable(),
  notices: list(AdmissionWarningSchema).optional(),
});

export const LoopRunSchema = z.object({
  id: z.string(),
  loopId: z.string(),
  key: z.string(),
  trigger: z.enum(TRIGGER_KINDS),
  state: RunStateSchema,
  cause: TerminalCauseSchema.nullable(),
  parkReason: ParkReasonSchema.nullable(),
  contract: ContractSchema,
  meters: MetersSchema,
  amendments: list(AmendmentSchema),
  createdAt: z.string(),
  stateSince: z.string(),
  endedAt: z.string().nullable(),
});

export const GateVerdictSchema = z.object({
  gateId: z.string(),
  verdict: z.enum(GATE_VERDICTS),
  blockerIds: list(z.string()),
  cause: z.enum(BLOCKED_BY_DEPENDENCY).optional(),
  unrecoverable: z.boolean().optional(),
  summary: z.string(),
  tokens: z.number().nullable().optional(),
});

const BodyEndSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("completed") }),
  z.object({ kind: z.literal("error"), message: z.string(), unrecoverable: z.boolean() }),
  z.object({ kind: z.literal("blocked"), cause: z.enum(BLOCKED_BY_DEPENDENCY), message: z.string() }),
  z.object({ kind: z.literal("aborted"), message: z.string() }),
  z.object({ kind: z.literal("interrupted") }),
]);

const CodonLayersSchema = z.object({
  codonId: z.string(),
  attempt: z.number().optional(),
  stream: z.string(),
  toolBatch: z.string(),
  turn: z.string(),
  codon: z.string(),
});

export const GenerationSchema = z.object({
  runId: z.string(),
  number: z.number(),
  key: z.string(),
  state: z.enum(GENERATION_STATES),
  facts: z.object({
    number: z.number(),
    body: BodyEndSchema,
    gates: list(GateVerdictSchema),
    hash: z.string().nullable(),
    inactive: z.literal(true).optional(),
  }),
  layers: list(CodonLayersSchema),
  bodyRunId: z.string().nullable(),
  tokens: z.number().nullable(),
  costUsd: z.number().nullable(),
  readMessages: list(z.number()),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
});

export const InboxMessageSchema = z.object({
  id: z.number(),
  runId: z.string(),
  kind: z.enum(MESSAGE_KINDS),
  author: z.string(),
  text: z.string(),
  createdAt: z.string(),
  readByGeneration: z.number().nullable(),
});

/** A terminal run's two end layers in the six kinds. */
export const EndLayersSchema = z.object({ driver: EndKindSchema, goal: EndKindSchema });

export const RegisteredLoopSchema = z.object({
  loopId: z.string(),
  file: z.string(),
  name: z.string(),
  kind: z.enum(LOOP_KINDS),
  updatedAt: z.string(),
});

/** A Loop's figures over its runs of the last 30 days: `done` is the only success. */
export const CatalogEntrySchema = z.object({
  loopId: z.string(),
  ended: z.number(),
  done: z.number(),
  noOp: z.number(),
  successPercent: z.number().nullable(),
  successText: z.string(),
  last: z.object({ id: z.string(), state: z.string(), cause: z.string().nullable() }).nullable(),
  definitionChanged: z.string().nullable(),
});

export const AdmissionReportSchema = z.object({
  rows: list(z.object({ condition: z.enum(CONDITIONS), met: z.boolean(), answer: z.string() })),
  warnings: list(AdmissionWarningSchema),
  admitted: z.boolean(),
});

export type LoopRunView = z.output<typeof LoopRunSchema>;
export type GenerationView = z.output<typeof GenerationSchema>;
export type InboxMessageView = z.output<typeof InboxMessageSchema>;
