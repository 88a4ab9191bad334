import { asArray, asRecord, type JsonRecord, stringField } from "./json-fields.ts";
import type { ClaudeHooks, HookAnswer } from "./query-options.ts";

/** The tool call a max-tokens stop cut off. */
export interface Truncation {
  readonly toolName: string;
}

const STOP_MESSAGE =
  "hankweave stopped the session: the model's output reached max_tokens inside a tool call, whose arguments may be incomplete";
const DENY_TRUNCATED =
  "The tool call was cut off at the output token limit (max_tokens); it was not executed.";
const DENY_UNFINISHED = "The response ended before this tool call was complete; it was not executed.";

type Settle = (stop: string | null) => void;

/**
 * Keeps truncated tool calls from running (spec: "truncated arguments are not executable").
 *
 * Claude Code executes a tool call as soon as its block is complete, even when the response then stops
 * at `max_tokens`, and it may start before the response's stop reason has arrived. So the PreToolUse
 * hook waits for the stop reason of the response that holds the call (from the stream events) and
 * denies the call when it is `max_tokens`, stopping the session there (`continue: false`). Arguments
 * cut mid-JSON never reach the hook (Claude Code rejects them as unparseable); the PostToolBatch hook
 * stops the session after such a batch. Subagent calls (hook input with `agent_id`) are let through:
 * their streams are not visible here.
 *
 * A response is keyed by its message id; a tool call by its tool_use id. A response whose stream ends
 * without a stop reason (a new response starts, or the session closes) settles as `null`, and its
 * calls are denied too: their arguments are in an unknown state.
 */
export class TruncationGuard {
  readonly #messageOfTool = new Map<string, string>();
  readonly #toolName = new Map<string, string>();
  readonly #toolsOfMessage = new Map<string, string[]>();
  readonly #stops = new Map<string, string | null>();
  readonly #waiting = new Map<string, Settle[]>();
  readonly #currentMessage = new Map<string, string>();
  #truncation: Truncation | undefined;
  #closed = false;

  readonly hooks: ClaudeHooks = {
    PreToolUse: (input, toolUseId, { signal }) => this.#preToolUse(asRecord(input), toolUseId, signal),
    PostToolBatch: (input, _toolUseId, { signal }) => this.#postToolBatch(asRecord(input), signal),
  };

  /** The first tool call the guard stopped, if any. */
  get truncation(): Truncation | undefined {
    return this.#truncation;
  }

  /** A stream event of one lane (the main thread, or a subagent by its parent tool use id). */
  onStreamEvent(lane: string, event: JsonRecord): void {
    if (event.type === "message_start") {
      const previous = this.#currentMessage.get(lane);
      if (previous !== undefined && !this.#stops.has(previous)) this.#settle(previous, null);
      const id = stringField(asRecord(event.message), "id");
      if (id !== undefined) this.#currentMessage.set(lane, id);
      return;
    }
    const current = this.#currentMessage.get(lane);
    if (current === undefined) return;
    if (event.type === "content_block_start") {
      const block = asRecord(event.content_block);
      const id = stringField(block, "id");
      if (block.type === "tool_use" && id !== undefined)
        this.#register(id, current, stringField(block, "name"));
    } else if (event.type === "message_delta") {
      this.#settle(current, stringField(asRecord(event.delta), "stop_reason") ?? null);
    } else if (event.type === "message_stop" && !this.#stops.has(current)) {
      this.#settle(current, null);
    }
  }

  /** A complete assistant message: registers its tool calls (covers responses that were not streamed). */
  onAssistantMessage(message: JsonRecord): void {
    const id = stringField(message, "id");
    if (id === undefined) return;
    for (const block of asArray(message.content).map(asRecord)) {
      const toolId = stringField(block, "id");
      if (block.type === "tool_use" && toolId !== undefined && !this.#messageOfTool.has(toolId)) {
        this.#register(toolId, id, stringField(block, "name"));
      }
    }
    const stop = stringField(message, "stop_reason");
    if (stop !== undefined && !this.#stops.has(id)) this.#settle(id, stop);
  }

  /** The session ended: every waiting hook is released. */
  close(): void {
    this.#closed = true;
    for (const settles of this.#waiting.values()) for (const settle of settles) settle(null);
    this.#waiting.clear();
  }

  #register(toolId: string, messageId: string, name: string | undefined): void {
    this.#messageOfTool.set(toolId, messageId);
    if (name !== undefined) this.#toolName.set(toolId, name);
    this.#toolsOfMessage.set(messageId, [...(this.#toolsOfMessage.get(messageId) ?? []), toolId]);
    if (this.#stops.has(messageId)) this.#release(toolId, this.#stops.get(messageId) ?? null);
  }

  #settle(messageId: string, stop: string | null): void {
    this.#stops.set(messageId, stop);
    for (const toolId of this.#toolsOfMessage.get(messageId) ?? []) this.#release(toolId, stop);
  }

  #release(toolId: string, stop: string | null): void {
    const settles = this.#waiting.get(toolId) ?? [];
    this.#waiting.delete(toolId);
    for (const settle of settles) settle(stop);
  }

  /** The stop reason of the response holding a tool call, once known. */
  #stopOf(toolId: string, signal: AbortSignal): Promise<string | null> {
    const messageId = this.#messageOfTool.get(toolId);
    if (messageId !== undefined && this.#stops.has(messageId)) {
      return Promise.resolve(this.#stops.get(messageId) ?? null);
    }
    if (this.#closed || signal.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.#waiting.set(toolId, [...(this.#waiting.get(toolId) ?? []), resolve]);
      signal.addEventListener("abort", () => resolve(null), { once: true });
    });
  }

  #truncated(toolId: string): void {
    this.#truncation ??= { toolName: this.#toolName.get(toolId) ?? "unknown" };
  }

  async #preToolUse(
    input: JsonRecord,
    hookToolId: string | undefined,
    signal: AbortSignal,
  ): Promise<HookAnswer> {
    const toolId = hookToolId ?? stringField(input, "tool_use_id");
    if (toolId === undefined || stringField(input, "agent_id") !== undefined) return {};
    const stop = await this.#stopOf(toolId, signal);
    if (stop === "max_tokens") {
      this.#truncated(toolId);
      return { continue: false, stopReason: STOP_MESSAGE, hookSpecificOutput: deny(DENY_TRUNCATED) };
    }
    return stop === null ? { hookSpecificOutput: deny(DENY_UNFINISHED) } : {};
  }

  async #postToolBatch(input: JsonRecord, signal: AbortSignal): Promise<HookAnswer> {
    if (stringField(input, "agent_id") !== undefined) return {};
    for (const call of asArray(input.tool_calls).map(asRecord)) {
      const toolId = stringField(call, "tool_use_id");
      if (toolId === undefined) continue;
      if ((await this.#stopOf(toolId, signal)) === "max_tokens") {
        this.#truncated(toolId);
        return { continue: false, stopReason: STOP_MESSAGE };
      }
    }
    return {};
  }
}

function deny(reason: string): NonNullable<HookAnswer["hookSpecificOutput"]> {
  return { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason };
}
