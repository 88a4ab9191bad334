import { z } from "zod";

/**
 * Sentinels are parallel observers of the event stream (run by `src/sentinels/`). Field names, limits
 * and value types follow the reference runtime so existing sentinel files load unchanged.
 */

const ConditionPath = z.string().min(1).describe("Dotted path into the event's `data`, e.g. `toolName`.");

/**
 * A test on one dotted path of an event's payload. The value's type follows the operator: a scalar for
 * `equals`/`notEquals`, a non-empty list for `in`/`notIn`, a string for `contains` and `matches` (a
 * regular expression), a number for `greaterThan`/`lessThan`.
 */
// Members spelled so that the JSON Schema export writes `anyOf`, not a list of types (strict
// validators such as ajv reject those).
const Listed = z.union([z.string().describe("A string value"), z.number().describe("A number value")]);

export const SentinelCondition = z.discriminatedUnion("operator", [
  z.strictObject({
    path: ConditionPath,
    operator: z.enum(["equals", "notEquals"]),
    value: z.union([z.string(), z.number(), z.boolean(), z.literal(null)]),
  }),
  z.strictObject({
    path: ConditionPath,
    operator: z.enum(["in", "notIn"]),
    value: z.array(Listed).min(1),
  }),
  z.strictObject({ path: ConditionPath, operator: z.enum(["contains", "matches"]), value: z.string() }),
  z.strictObject({ path: ConditionPath, operator: z.enum(["greaterThan", "lessThan"]), value: z.number() }),
]);
export type SentinelCondition = z.infer<typeof SentinelCondition>;

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
export type SentinelTrigger = z.infer<typeof SentinelTrigger>;

export const SentinelExecution = z.discriminatedUnion("strategy", [
  z.strictObject({ strategy: z.literal("immediate") }),
  z.strictObject({ strategy: z.literal("debounce"), milliseconds: z.int().positive().max(300_000) }),
  z.strictObject({ strategy: z.literal("count"), threshold: z.int().positive().max(1000) }),
  z.strictObject({ strategy: z.literal("timeWindow"), milliseconds: z.int().positive().max(3_600_000) }),
]);
export type SentinelExecution = z.infer<typeof SentinelExecution>;

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

/**
 * Validated output: `object` and `array` (of items) take a schema as a JSON Schema or a zod expression
 * (`schemaStr`, or a file), `enum` takes `enumValues`.
 */
const StructuredOutput = z.strictObject({
  output: z.enum(["object", "array", "enum"]),
  schemaStr: z.string().optional(),
  schemaFile: z.string().optional(),
  enumValues: z.array(z.string()).min(1).optional(),
  schemaName: z.string().optional(),
  schemaDescription: z.string().optional(),
});

/** One prompt file, or several joined with a blank line. */
const PromptFiles = z.union([z.string(), z.array(z.string()).min(1)]);

/** Model call parameters a sentinel may set (defaults: temperature 0, 8192 output tokens, 2 retries). */
const LlmParams = z.strictObject({
  temperature: z.number().min(0).max(2).optional(),
  maxOutputTokens: z.int().positive().max(100_000).optional(),
  maxRetries: z.int().min(0).max(5).optional(),
});

/** A portable sentinel definition, inline in the hank or in its own JSON file. */
export const SentinelConfig = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/, "Sentinel id must use only lowercase letters, digits and '-'"),
  name: z.string().min(1),
  description: z.string().optional(),
  trigger: SentinelTrigger,
  execution: SentinelExecution,
  systemPromptFile: PromptFiles.optional(),
  systemPromptText: z.string().optional(),
  userPromptFile: PromptFiles.optional(),
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
  llmParams: LlmParams.optional(),
  model: z.string().min(1).describe("Full model id, e.g. anthropic/claude-haiku-4-5."),
  structuredOutput: StructuredOutput.optional(),
  joinString: z.string().optional(),
  reportToWebsocket: ReportToWebsocket.optional(),
  output: z
    .strictObject({ format: z.enum(["text", "jsonl"]).optional(), file: z.string().optional() })
    .optional(),
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
