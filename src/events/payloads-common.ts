import { z } from "zod";

/**
 * Building blocks shared by several event payloads and by the run state. Field names follow the
 * reference event catalogue (reference 1.10-1.12); our additions are marked where they appear.
 */

/** An ISO-8601 instant, as written by `Date#toISOString` (offsets accepted when reading). */
export const IsoTimestamp = z.iso.datetime({ offset: true });

/** A non-negative whole number: token counts, indexes, sizes. */
export const Count = z.int().nonnegative();

/**
 * Why one layer of a session ended ("record end reasons separately"), ordered from best to worst.
 * `aborted` is a delivered cancel; `interrupted` is only ever written by crash recovery.
 */
export const END_REASONS = ["completed", "max-tokens", "blocked", "error", "aborted", "interrupted"] as const;
export const EndReason = z.enum(END_REASONS);
export type EndReason = z.infer<typeof EndReason>;

/** Our addition to `codon.completed`: the end reason of every layer of the codon's last attempt. */
export const CodonEndReasons = z.strictObject({
  stream: EndReason,
  toolBatch: EndReason,
  turn: EndReason,
  /** Decided by the engine: the codon's own outcome (budget stop, abort, crash recovery...). */
  codon: EndReason,
});
export type CodonEndReasons = z.infer<typeof CodonEndReasons>;

/** Codon statuses (reference 1.11), in lifecycle order; the last three are terminal. */
export const CODON_STATUSES = [
  "preparing",
  "starting",
  "initializing",
  "running",
  "completing-sentinels",
  "completed",
  "failed",
  "skipped",
] as const;
export const CodonStatus = z.enum(CODON_STATUSES);
export type CodonStatus = z.infer<typeof CodonStatus>;

/** The states a codon can fail during (`failedDuring`). */
export const ActiveCodonStatus = z.enum([
  "preparing",
  "starting",
  "initializing",
  "running",
  "completing-sentinels",
]);
export type ActiveCodonStatus = z.infer<typeof ActiveCodonStatus>;

const CODON_STATUS_SET: ReadonlySet<string> = new Set(CODON_STATUSES);

/** Whether a value is a codon status: a set lookup, for the reducer's hot path (no schema parse). */
export function isCodonStatus(value: unknown): value is CodonStatus {
  return typeof value === "string" && CODON_STATUS_SET.has(value);
}

export function isTerminalCodonStatus(status: CodonStatus): boolean {
  return status === "completed" || status === "failed" || status === "skipped";
}

/** The classes of failure; `retriable` decides whether `onFailure: retry` may try again. */
export const FAILURE_TYPES = [
  "timeout",
  "rate-limit",
  "api-error",
  "sentinel-load-failure",
  "unknown",
] as const;
export type FailureType = (typeof FAILURE_TYPES)[number];

/**
 * A classified failure. `retryAfterMs` is a provider's Retry-After hint (it replaces the computed
 * backoff); `sentinelRefs` names the sentinels of a sentinel load failure.
 */
export const FailureReason = z.strictObject({
  type: z.enum(FAILURE_TYPES),
  retriable: z.boolean(),
  message: z.string(),
  retryAfterMs: z.number().nonnegative().optional(),
  sentinelRefs: z.array(z.string()).optional(),
});
export type FailureReason = z.infer<typeof FailureReason>;

/**
 * How the agent process (or in-process session) ended. Addition: `none`, when no agent process exit can
 * be reported: none was running (a cancel before the agent started), or the attempt died with the
 * runtime and crash recovery marks it `interrupted`.
 */
export const ExitStatus = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("success") }),
  z.strictObject({ type: z.literal("error"), code: z.number() }),
  z.strictObject({ type: z.literal("killed"), signal: z.string() }),
  z.strictObject({ type: z.literal("none") }),
]);
export type ExitStatus = z.infer<typeof ExitStatus>;

/** The four budget currencies (reference 1.8). */
export const BudgetCurrency = z.enum(["cost", "duration", "outputTokens", "contextTokens"]);
export type BudgetCurrency = z.infer<typeof BudgetCurrency>;

/** Which budget tripped, its limit and what was used when it did. */
export const BudgetExceeded = z.strictObject({
  currency: BudgetCurrency,
  limit: z.number(),
  used: z.number(),
});
export type BudgetExceeded = z.infer<typeof BudgetExceeded>;

/**
 * Our addition to `codon.completed` and the run state: the final assistant text of a successful attempt.
 * `text` is bounded by the runtime (its first characters, never half a surrogate pair) so that a long
 * answer cannot bloat the journal or `state.json`; `chars` is the full text's length in UTF-16 code
 * units and `truncated` says that `text` is shorter than that. Every message is also journaled in full
 * as `assistant.action`.
 */
export const CodonResultText = z.strictObject({
  text: z.string(),
  truncated: z.boolean(),
  chars: Count,
});
export type CodonResultText = z.infer<typeof CodonResultText>;

/**
 * Why a loop ended, as `loop.iteration.completed` reports it. Budget exhaustion also ends a loop but is
 * deliberately not one of these (the plan records it as a fuller cause and maps it on the way out).
 */
export const LOOP_TERMINATION_REASONS = [
  "iteration_limit",
  "context_exceeded",
  "sentinel_skip",
  "failure",
] as const;
export const LoopTerminationReason = z.enum(LOOP_TERMINATION_REASONS);
export type LoopTerminationReason = z.infer<typeof LoopTerminationReason>;

export const TokenUsage = z.strictObject({
  inputTokens: Count,
  outputTokens: Count,
  cacheCreationTokens: Count,
  cacheReadTokens: Count,
});
export type TokenUsage = z.infer<typeof TokenUsage>;

/** One node of the workspace tree (`filetree.updated`, `state.snapshot`). */
export interface FileNode {
  name: string;
  path: string;
  isDirectory: boolean;
  children: FileNode[];
  lastModified?: string | undefined;
}
export const FileNode: z.ZodType<FileNode> = z.strictObject({
  name: z.string(),
  path: z.string(),
  isDirectory: z.boolean(),
  get children() {
    return z.array(FileNode);
  },
  lastModified: z.string().optional(),
});

/** A codon execution as `state.snapshot` reports it. */
export const CodonExecution = z.strictObject({
  codonId: z.string(),
  codonName: z.string().optional(),
  status: CodonStatus,
  startTime: z.string(),
  endTime: z.string().optional(),
  sessionId: z.string().optional(),
  previousSessionId: z.string().optional(),
  claudeSessionId: z.string().optional(),
  tokenUsage: TokenUsage.optional(),
  cost: z.number().optional(),
  duration: z.number().optional(),
  exitStatus: ExitStatus.optional(),
  failureReason: FailureReason.optional(),
  description: z.string().optional(),
  finalCost: z.number().optional(),
  partialCost: z.number().optional(),
  currentCost: z.number().optional(),
  completionCheckpoint: z.string().optional(),
  rigSetupCheckpoint: z.string().optional(),
  errorCheckpoint: z.string().optional(),
  skipCheckpoint: z.string().optional(),
});
export type CodonExecution = z.infer<typeof CodonExecution>;

/** A path that could not be archived or restored, and why. */
export const FailedPath = z.strictObject({ path: z.string(), error: z.string() });
