import { z } from "zod";

/**
 * Sentinels are parallel observers of the event stream. Their shape is validated now; running them is a
 * later capability. Field names follow the reference runtime so existing sentinel files load unchanged.
 */

const ConditionOperator = z.enum([
  "equals",
  "notEquals",
  "in",
  "notIn",
  "contains",
  "matches",
  "greaterThan",
  "lessThan",
]);

/** A test on one dotted path of an event's payload. */
export const SentinelCondition = z.strictObject({
  path: z.string().min(1),
  operator: ConditionOperator,
  value: z.unknown(),
});

const EventTrigger = z.strictObject({
  type: z.literal("event"),
  on: z.array(z.string().min(1)).min(1).describe("Event types, or '*' for all."),
  conditions: z.array(SentinelCondition).optional(),
});

const SequenceTrigger = z.strictObject({
  type: z.literal("sequence"),
  interestFilter: z.strictObject({ on: z.array(z.string().min(1)).min(1) }),
  pattern: z
    .array(z.strictObject({ type: z.string().min(1), conditions: z.array(SentinelCondition).optional() }))
    .min(1),
  options: z.strictObject({ consecutive: z.boolean().optional() }).optional(),
});

export const SentinelTrigger = z.discriminatedUnion("type", [EventTrigger, SequenceTrigger]);

export const SentinelExecution = z.discriminatedUnion("strategy", [
  z.strictObject({ strategy: z.literal("immediate") }),
  z.strictObject({ strategy: z.literal("debounce"), milliseconds: z.int().positive().max(300_000) }),
  z.strictObject({ strategy: z.literal("count"), threshold: z.int().positive().max(1000) }),
  z.strictObject({ strategy: z.literal("timeWindow"), milliseconds: z.int().positive().max(3_600_000) }),
]);

const TrimmingStrategy = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("maxTurns"), maxTurns: z.int().positive().max(100) }),
  z.strictObject({ type: z.literal("maxTokens"), maxTokens: z.int().positive().max(100_000) }),
]);

const ReportToWebsocket = z.strictObject({
  lifecycle: z.boolean().optional(),
  errors: z.boolean().optional(),
  outputs: z.boolean().optional(),
  triggers: z.boolean().optional(),
});

const StructuredOutput = z.strictObject({
  output: z.enum(["object", "array", "enum"]),
  schemaStr: z.string().optional(),
  schemaFile: z.string().optional(),
  enumValues: z.array(z.string()).optional(),
  schemaName: z.string().optional(),
  schemaDescription: z.string().optional(),
});

/** A portable sentinel definition, inline in the hank or in its own JSON file. */
export const SentinelConfig = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/, "Sentinel id must use only lowercase letters, digits and '-'"),
  name: z.string().min(1),
  description: z.string().optional(),
  trigger: SentinelTrigger,
  execution: SentinelExecution,
  systemPromptFile: z.string().optional(),
  systemPromptText: z.string().optional(),
  userPromptFile: z.string().optional(),
  userPromptText: z.string().optional(),
  conversational: z
    .strictObject({ trimmingStrategy: TrimmingStrategy, continueOnError: z.boolean().optional() })
    .optional(),
  errorHandling: z
    .strictObject({
      maxConsecutiveFailures: z.int().positive().default(3),
      unloadOnFatalError: z.boolean().default(true),
    })
    .optional(),
  llmParams: z.record(z.string(), z.unknown()).optional(),
  model: z.string().min(1).describe("Full model id, e.g. anthropic/claude-haiku-4-5."),
  structuredOutput: StructuredOutput.optional(),
  joinString: z.string().optional(),
  reportToWebsocket: ReportToWebsocket.optional(),
  output: z.strictObject({ format: z.enum(["text", "jsonl"]), file: z.string().optional() }).optional(),
});
export type SentinelConfig = z.infer<typeof SentinelConfig>;

/** A codon's sentinel entry: a config (path or inline) plus per-codon settings. */
export const SentinelEntry = z.strictObject({
  sentinelConfig: z.union([z.string(), SentinelConfig]),
  settings: z
    .strictObject({
      failCodonIfNotLoaded: z.boolean().optional(),
      outputPaths: z
        .strictObject({ logFile: z.string().optional(), lastValueFile: z.string().optional() })
        .optional(),
      reportToWebsocket: ReportToWebsocket.optional(),
    })
    .optional(),
});
export type SentinelEntry = z.infer<typeof SentinelEntry>;
