import { z } from "zod";
import { ContainerBudget } from "./budget.ts";
import { Codon, FileRefs, IdleTimeoutSeconds } from "./codon.ts";
import { Loop } from "./loop.ts";

/** One entry of the `hank` array. A missing `type` means a codon. */
export const HankItem = z.union([Loop, Codon]);
export type HankItem = z.infer<typeof HankItem>;

export const Meta = z.strictObject({
  name: z.string().min(1),
  version: z.string().min(1),
  description: z.string().optional(),
  author: z.string().optional(),
});

export const DEFAULT_DATA_HASH_TIME_LIMIT_MS = 5000;

export const Overrides = z.strictObject({
  model: z.string().min(1).optional().describe("Default model id, checked against the catalog."),
  dataHashTimeLimit: z
    .int()
    .positive()
    .optional()
    .describe("Milliseconds allowed for hashing the data source."),
  sentinel: z
    .strictObject({
      enablePersistence: z.boolean().optional(),
      healthCheckGracePeriodMs: z.int().min(0).optional(),
      waitForAllHealthChecks: z.boolean().optional(),
    })
    .optional(),
  shimIdleTimeout: IdleTimeoutSeconds.optional(),
  budget: ContainerBudget.optional().describe("The hank-level budget."),
});
export type Overrides = z.infer<typeof Overrides>;

const NonEmptyTrimmed = z.string().trim().min(1);

/** Not strict, as in the reference runtime: unknown fields are dropped (validation warns). */
export const Requirements = z.object({
  env: z.array(NonEmptyTrimmed).optional().describe("Variables that must be set (NAME or HANKWEAVE_NAME)."),
  tools: z.array(NonEmptyTrimmed).optional().describe("Programs that must be found on PATH."),
});

export const HankShape = {
  $schema: z.string().optional(),
  meta: Meta.optional(),
  overrides: Overrides.optional(),
  requirements: Requirements.optional(),
  globalSystemPromptFile: FileRefs.optional().describe("File(s) prepended to every codon's system prompt."),
  globalSystemPromptText: z.string().optional().describe("Text prepended to every codon's system prompt."),
  hank: z.array(HankItem).min(1, "At least one codon required").describe("Codons and loops, run in order."),
};

/** The whole hank file. The root is strict: unknown keys are errors. */
export const HankFile = z.strictObject(HankShape).describe("A hankweave hank file.");
export type HankFile = z.infer<typeof HankFile>;
export type HankFileInput = z.input<typeof HankFile>;

export const ROOT_FIELDS = Object.keys(HankShape);
