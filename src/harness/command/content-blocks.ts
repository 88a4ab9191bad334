import { asArray, asRecord, asString, type JsonRecord } from "./json-fields.ts";
import type { ParserSink } from "./output-parser.ts";
import type { ToolTracker } from "./tool-tracker.ts";

/** How an agent CLI spells a tool call block: its `type` and the field holding its arguments. */
export interface ToolCallShape {
  readonly type: string;
  readonly inputField: string;
}

/**
 * Emits the text, thinking and tool-call blocks of one assistant message's `content` as harness
 * events, and returns the message's non-empty texts in order (Claude Code's stream-json and pi's json
 * mode share this shape, apart from the tool-call spelling).
 */
export function emitContentBlocks(
  content: unknown,
  sink: ParserSink,
  tools: ToolTracker,
  toolCall: ToolCallShape,
): string[] {
  const texts: string[] = [];
  for (const block of asArray(content).map(asRecord)) {
    const text = asString(block.text);
    if (block.type === "text" && text !== undefined && text !== "") {
      texts.push(text);
      sink.emit({ type: "assistant.text", text });
    }
    const thinking = asString(block.thinking);
    if (block.type === "thinking" && thinking !== undefined && thinking !== "") {
      sink.emit({ type: "assistant.thinking", text: thinking });
    }
    if (block.type === toolCall.type) {
      const input: JsonRecord = asRecord(block[toolCall.inputField]);
      tools.use(asString(block.id) ?? "", asString(block.name) ?? "unknown", input);
    }
  }
  return texts;
}
