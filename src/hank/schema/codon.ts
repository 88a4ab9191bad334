import { z } from "zod";
import { CodonBudget } from "./budget.ts";
import { OutputFileGroup, RigOp } from "./rig.ts";
import { SentinelEntry } from "./sentinel.ts";

/** A file reference that may name several files, joined with a blank line. */
export const FileRefs = z.union([z.string(), z.array(z.string()).min(1)]);
export type FileRefs = z.infer<typeof FileRefs>;

export const ContinuationMode = z.enum(["fresh", "continue-previous"]);
export type ContinuationMode = z.infer<typeof ContinuationMode>;

export const OnFailure = z.enum(["abort", "retry", "ignore"]);
export type OnFailure = z.infer<typeof OnFailure>;

/**
 * Retry bounds. Waits grow as delayMs * 2^attempt, capped at maxDelayMs; a Retry-After hint wins.
 * Not strict, as in the reference runtime: unknown fields are dropped (validation warns).
 */
export const RetryConfig = z.object({
  maxAttempts: z.int().min(1).max(10).default(3).describe("Attempts in all, 1-10."),
  delayMs: z.int().min(0).max(60_000).default(1000).describe("First wait in milliseconds."),
  maxDelayMs: z.int().min(0).max(600_000).default(60_000).describe("Longest wait in milliseconds."),
});
export type RetryConfig = z.infer<typeof RetryConfig>;

export const DEFAULT_MAX_EXTENSIONS = 100;

/** Harness idle timeout bounds, in seconds. */
export const IdleTimeoutSeconds = z.int().min(1).max(1800);

/** The fields of a codon, in the order the reference documents them. Shared with the typo checker. */
export const CodonShape = {
  type: z.literal("codon").optional().describe("Type discriminator; optional, defaults to 'codon'."),
  id: z.string().min(1).describe("Unique identifier across the whole hank, loop bodies included."),
  name: z.string().min(1).describe("Human-readable name shown in the UI and logs."),
  promptFile: FileRefs.optional().describe(
    "Prompt file(s), relative to the hank directory with '/' separators. Several files join with a blank line.",
  ),
  promptText: z.string().optional().describe("Inline prompt text."),
  appendSystemPromptFile: FileRefs.optional().describe("File(s) appended to the system prompt."),
  appendSystemPromptText: z.string().optional().describe("Text appended to the system prompt."),
  model: z
    .string()
    .min(1)
    .describe(
      "Model id: an alias (haiku, sonnet, opus), provider/model, pi/<provider>/<model>, or scripted.",
    ),
  continuationMode: ContinuationMode.describe(
    "'fresh' starts a new session; 'continue-previous' resumes the previous codon's session (same model).",
  ),
  rigSetup: z.array(RigOp).optional().describe("Operations run, in order, before the agent starts."),
  description: z.string().optional(),
  checkpointedFiles: z
    .array(z.string().min(1))
    .optional()
    .describe("Globs of files watched, streamed and committed to checkpoints (gitignore rules apply)."),
  env: z
    .record(z.string(), z.string())
    .optional()
    .describe("Environment for the agent, rig and beforeCopy commands."),
  outputFiles: z
    .array(OutputFileGroup)
    .optional()
    .describe("Files copied to the -o directory after success."),
  sentinels: z.array(SentinelEntry).optional().describe("Parallel observers of the event stream."),
  archiveOnSuccess: z
    .array(z.string().min(1))
    .optional()
    .describe("Globs relative to agentRoot, moved to rigArchive/ after success."),
  onFailure: OnFailure.optional().describe("'abort' (default), 'retry' or 'ignore'."),
  retryConfig: RetryConfig.optional().describe("Retry bounds; only with onFailure 'retry'."),
  exhaustWithPrompt: z
    .string()
    .optional()
    .describe("After each success, continue the session with this prompt until the context is exhausted."),
  maxExtensions: z.int().positive().optional().describe("Safety valve for exhaustWithPrompt. Default 100."),
  autoCompact: z
    .boolean()
    .optional()
    .describe("Let the harness compact the session at the window. Default false: overflow is the signal."),
  shimIdleTimeout: IdleTimeoutSeconds.optional().describe(
    "Seconds without agent events before the session aborts.",
  ),
  budget: CodonBudget.optional(),
};

/** A sealed agent task: one session, one prompt, one model. */
export const Codon = z.strictObject(CodonShape).describe("A codon: one sealed agent task.");
export type Codon = z.infer<typeof Codon>;
/** A codon as written in the file, before defaults. */
export type CodonInput = z.input<typeof Codon>;

export const CODON_FIELDS = Object.keys(CodonShape);
