import type { HarnessEvent } from "../harness.ts";
import { fileChangeOf, toolEffects } from "./file-change.ts";
import { asArray, asRecord, contentText, type JsonRecord, stringField } from "./json-fields.ts";

interface OpenToolCall {
  readonly name: string;
  readonly input: JsonRecord;
  readonly startedMs: number;
}

/**
 * Turns the SDK's assistant and user messages into harness events: text, thinking and tool calls from
 * assistant content blocks; tool results (timed from the call) and file changes from user messages.
 * Synthetic assistant messages that only carry an API error are left to the outcome.
 */
export class EventMapper {
  readonly #open = new Map<string, OpenToolCall>();

  constructor(
    private readonly cwd: string,
    private readonly now: () => number,
    private readonly emit: (event: HarnessEvent) => void,
  ) {}

  /** Whether a tool call was issued and has no result yet. */
  get toolsPending(): boolean {
    return this.#open.size > 0;
  }

  onAssistant(message: JsonRecord): void {
    const body = asRecord(message.message);
    if (message.error !== undefined || body.model === "<synthetic>") return;
    for (const block of asArray(body.content).map(asRecord)) this.#assistantBlock(block);
  }

  onUser(message: JsonRecord): void {
    const blocks = asArray(asRecord(message.message).content).map(asRecord);
    for (const block of blocks) {
      if (block.type === "tool_result") this.#toolResult(block, message.tool_use_result);
    }
  }

  #assistantBlock(block: JsonRecord): void {
    const text = stringField(block, "text") ?? "";
    if (block.type === "text" && text.trim() !== "") this.emit({ type: "assistant.text", text });
    const thinking = stringField(block, "thinking") ?? "";
    if (block.type === "thinking" && thinking.trim() !== "") {
      this.emit({ type: "assistant.thinking", text: thinking });
    }
    const toolUseId = stringField(block, "id");
    if (block.type !== "tool_use" || toolUseId === undefined) return;
    const toolName = stringField(block, "name") ?? "unknown";
    const input = toolInput(asRecord(block.input));
    this.#open.set(toolUseId, { name: toolName, input, startedMs: this.now() });
    // Arguments Claude Code could not parse are rejected before the tool runs.
    const effects = input.truncated === true ? "none" : toolEffects(toolName);
    this.emit({ type: "tool.use", toolUseId, toolName, input, effects });
  }

  #toolResult(block: JsonRecord, toolUseResult: unknown): void {
    const toolUseId = stringField(block, "tool_use_id");
    if (toolUseId === undefined) return;
    const call = this.#open.get(toolUseId);
    this.#open.delete(toolUseId);
    const isError = block.is_error === true;
    this.emit({
      type: "tool.result",
      toolUseId,
      toolName: call?.name ?? "unknown",
      result: contentText(block.content),
      isError,
      executionTimeMs: call === undefined ? 0 : Math.max(0, this.now() - call.startedMs),
    });
    if (isError || call === undefined) return;
    const change = fileChangeOf(call.name, call.input, toolUseResult, this.cwd);
    if (change !== undefined) this.emit({ type: "file.changed", ...change, toolUseId });
  }
}

/**
 * A tool call's input as reported. Claude Code marks arguments it could not parse (cut mid-JSON) as
 * `__unparsedToolInput`; they are reported as `{truncated: true, partialInput}`, like the scripted agent.
 */
function toolInput(input: JsonRecord): JsonRecord {
  const unparsed = asRecord(input.__unparsedToolInput);
  const raw = stringField(unparsed, "raw");
  return raw === undefined ? input : { truncated: true, partialInput: raw };
}
