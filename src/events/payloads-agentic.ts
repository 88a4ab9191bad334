import { z } from "zod";
import { Count, FileNode } from "./payloads-common.ts";

/** Payloads of the agentic-backbone and sentinel events (reference 1.10): journaled and broadcast. */

/** `tool_use` actions carry the `toolUseId` that joins them to their `tool.result` (reference v0.11). */
export const AssistantActionData = z
  .strictObject({
    codonId: z.string(),
    action: z.enum(["thinking", "message", "tool_use"]),
    content: z.string(),
    toolName: z.string().optional(),
    /** Never truncated. */
    toolInput: z.record(z.string(), z.unknown()).optional(),
    toolUseId: z.string().optional(),
  })
  .refine((data) => data.action !== "tool_use" || data.toolUseId !== undefined, {
    message: "a tool_use action requires toolUseId",
    path: ["toolUseId"],
  });

export const ToolResultData = z.strictObject({
  codonId: z.string(),
  toolUseId: z.string(),
  toolName: z.string(),
  /** Truncated at `toolResultTruncateLength` (2500 characters); see `truncated` and `originalLength`. */
  result: z.string(),
  truncated: z.boolean(),
  originalLength: Count,
  executionTimeMs: z.number(),
  isError: z.boolean(),
});

/** Which action produced a file change: a tool call, or the scan at codon start. */
export const FileUpdatedSource = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("tool_use"), toolUseId: z.string() }),
  z.strictObject({ kind: z.literal("codon-start") }),
]);

/** Event schema v2 form: a content hash and size instead of the content. Both are absent for `deleted`. */
export const FileUpdatedData = z.strictObject({
  path: z.string(),
  filename: z.string(),
  action: z.enum(["created", "modified", "deleted"]),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  bytes: Count.optional(),
  source: FileUpdatedSource,
});

export const FiletreeUpdatedData = z.strictObject({ tree: z.array(FileNode) });

export const RigSetupCompletedData = z.strictObject({
  codonId: z.string(),
  rigType: z.enum(["command", "commands"]),
  commandCount: Count,
  durationMs: z.number(),
  createdCheckpoint: z.boolean(),
});

export const RigSetupFailedData = z.strictObject({
  codonId: z.string(),
  failureType: z.enum(["command_failed", "timeout", "other"]),
  exitCode: z.number().optional(),
  commandIndex: Count.optional(),
  ignored: z.boolean(),
});

export const RigOutputData = z.strictObject({
  codonId: z.string(),
  stream: z.enum(["stdout", "stderr"]),
  line: z.string(),
  commandIndex: Count,
});

const ExecutionStrategy = z.enum(["immediate", "debounce", "count", "timeWindow"]);

export const SentinelLoadedData = z.strictObject({
  sentinelId: z.string(),
  codonId: z.string(),
  model: z.string(),
  triggerType: z.enum(["event", "sequence"]),
  executionStrategy: ExecutionStrategy,
  conversational: z.boolean(),
  source: z.enum(["file", "inline"]),
  sourcePath: z.string().optional(),
});

export const SentinelUnloadedData = z.strictObject({
  sentinelId: z.string(),
  codonId: z.string(),
  reason: z.enum(["codon-complete", "fatal-error", "consecutive-failures", "shutdown"]),
  errorType: z.enum(["template", "configuration", "corruption", "resource"]).optional(),
  finalCost: z.number(),
  llmCallCount: Count,
});

export const SentinelErrorData = z.strictObject({
  sentinelId: z.string(),
  codonId: z.string(),
  errorType: z.enum(["llm-call-failed", "template-render-failed", "file-write-failed"]),
  message: z.string(),
  retriable: z.boolean(),
  consecutiveFailureCount: Count,
  /** What a call that was answered but rejected (a structured output that fails its schema) cost. */
  cost: z.number().optional(),
  tokens: z.strictObject({ input: Count, output: Count }).optional(),
});

export const SentinelOutputData = z.strictObject({
  sentinelId: z.string(),
  codonId: z.string(),
  triggerNumber: Count,
  outputType: z.enum(["text", "structured"]),
  /** Text, or the accepted structured value: an object, an array (`array` output) or a string (`enum`). */
  content: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]),
  cost: z.number(),
  tokens: z.strictObject({ input: Count, output: Count }),
  eventCount: Count,
});

export const SentinelTriggeredData = z.strictObject({
  sentinelId: z.string(),
  codonId: z.string(),
  triggerNumber: Count,
  strategy: ExecutionStrategy,
  eventCount: Count,
  queueSize: Count,
});
