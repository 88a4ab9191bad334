import type { SessionRequest } from "../harness.ts";

/** A hook's answer, in the subset of the SDK's hook output that this adapter uses. */
export interface HookAnswer {
  readonly continue?: boolean;
  readonly stopReason?: string;
  readonly hookSpecificOutput?: {
    readonly hookEventName: "PreToolUse";
    readonly permissionDecision: "deny";
    readonly permissionDecisionReason: string;
  };
}

export type HookCallback = (
  input: unknown,
  toolUseId: string | undefined,
  options: { signal: AbortSignal },
) => Promise<HookAnswer>;

/** The hooks this adapter registers (see truncation-guard.ts). */
export interface ClaudeHooks {
  readonly PreToolUse: HookCallback;
  readonly PostToolBatch: HookCallback;
}

/**
 * The subset of the SDK's `Options` this adapter sends. Declared here, not imported, so the SDK stays
 * an optional peer: its types are checked against this one where the SDK is imported (load-sdk.ts).
 */
export interface ClaudeQueryOptions {
  cwd: string;
  model: string;
  systemPrompt: { type: "preset"; preset: "claude_code"; append?: string };
  permissionMode: "bypassPermissions";
  allowDangerouslySkipPermissions: true;
  settingSources: [];
  env: { [name: string]: string | undefined };
  resume?: string;
  abortController: AbortController;
  stderr: (data: string) => void;
  includePartialMessages: true;
  hooks: {
    PreToolUse: Array<{ hooks: HookCallback[] }>;
    PostToolBatch: Array<{ hooks: HookCallback[] }>;
  };
  pathToClaudeCodeExecutable?: string;
  tools?: string[];
  disallowedTools?: string[];
}

export interface QueryOptionsInput {
  readonly request: SessionRequest;
  readonly env: Readonly<Record<string, string>>;
  readonly hooks: ClaudeHooks;
  readonly abortController: AbortController;
  readonly onStderr: (data: string) => void;
  readonly executablePath: string | undefined;
}

/**
 * The options of one `query()`. Decisions, and why:
 * - The system prompt is Claude Code's own, with the hank's system prompt appended: a codon's
 *   `appendSystemPrompt*` (and the hank's global one) add instructions, as the field names say; they
 *   do not replace the agent's knowledge of its tools.
 * - Permissions are bypassed (the agent runs unattended in its own workspace) and no settings files
 *   are read (`settingSources: []`): no user, project or local settings, hooks or CLAUDE.md change a run.
 * - Partial messages are on: their stream events carry each response's stop reason and token usage,
 *   which the assistant messages do not (their `usage` is the `message_start` snapshot).
 * - Tool settings (`request.tools`): `allow` is the SDK's `tools`, the base set of built-in tools the
 *   model is given (not `allowedTools`, which only skips permission prompts and restricts nothing under
 *   bypassed permissions); `deny` is `disallowedTools`, removed from the model's context.
 */
export function buildQueryOptions(input: QueryOptionsInput): ClaudeQueryOptions {
  const { request } = input;
  const systemPrompt: ClaudeQueryOptions["systemPrompt"] =
    request.systemPrompt !== undefined && request.systemPrompt.trim() !== ""
      ? { type: "preset", preset: "claude_code", append: request.systemPrompt }
      : { type: "preset", preset: "claude_code" };
  return {
    cwd: request.cwd,
    model: request.model.id,
    systemPrompt,
    permissionMode: "bypassPermissions",
    allowDangerouslySkipPermissions: true,
    settingSources: [],
    env: { ...input.env },
    ...(request.resumeSessionId !== undefined && { resume: request.resumeSessionId }),
    abortController: input.abortController,
    stderr: input.onStderr,
    includePartialMessages: true,
    hooks: {
      PreToolUse: [{ hooks: [input.hooks.PreToolUse] }],
      PostToolBatch: [{ hooks: [input.hooks.PostToolBatch] }],
    },
    ...(input.executablePath !== undefined && { pathToClaudeCodeExecutable: input.executablePath }),
    ...(request.tools?.allow !== undefined && { tools: [...request.tools.allow] }),
    ...(request.tools?.deny !== undefined && { disallowedTools: [...request.tools.deny] }),
  };
}
