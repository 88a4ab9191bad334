import type { FakeRequestView, FakeTool, FakeToolResult } from "./fake-types.ts";
import {
  asArray,
  asRecord,
  asString,
  contentText,
  type JsonRecord,
  schemaProperties,
} from "./json-access.ts";

/** What both providers' conversations reduce to before the view is assembled. */
interface Conversation {
  readonly system: string;
  readonly tools: readonly FakeTool[];
  /** Each message as a prompt (user text) or the tool results it carries. */
  readonly entries: ReadonlyArray<{ readonly prompt: string } | { readonly results: FakeToolResult[] }>;
  readonly messageCount: number;
}

function assemble(
  provider: FakeRequestView["provider"],
  body: JsonRecord,
  requestIndex: number,
  conversation: Conversation,
): FakeRequestView {
  const prompts: string[] = [];
  let toolResults: FakeToolResult[] = [];
  let totalToolResults = 0;
  for (const entry of conversation.entries) {
    if ("prompt" in entry) {
      prompts.push(entry.prompt);
      toolResults = [];
    } else {
      toolResults = [...toolResults, ...entry.results];
      totalToolResults += entry.results.length;
    }
  }
  return {
    provider,
    requestIndex,
    model: asString(body.model),
    stream: body.stream === true,
    system: conversation.system,
    tools: conversation.tools,
    prompt: prompts.at(-1) ?? "",
    prompts,
    toolResults,
    step: toolResults.length,
    totalToolResults,
    messageCount: conversation.messageCount,
    body,
  };
}

/** The view of an Anthropic Messages request. */
export function anthropicView(body: JsonRecord, requestIndex: number): FakeRequestView {
  const messages = asArray(body.messages).map(asRecord);
  const entries: Conversation["entries"][number][] = [];
  for (const message of messages) {
    if (message.role !== "user") continue;
    const blocks = typeof message.content === "string" ? [] : asArray(message.content).map(asRecord);
    const results = blocks.filter((b) => b.type === "tool_result").map(anthropicToolResult);
    if (results.length > 0) entries.push({ results });
    else entries.push({ prompt: contentText(message.content) });
  }
  const tools = asArray(body.tools)
    .map(asRecord)
    .filter((tool) => typeof tool.name === "string")
    .map((tool) => ({ name: asString(tool.name), properties: schemaProperties(tool.input_schema) }));
  const system = contentText(body.system);
  return assemble("anthropic", body, requestIndex, {
    system,
    tools,
    entries,
    messageCount: messages.length,
  });
}

function anthropicToolResult(block: JsonRecord): FakeToolResult {
  return {
    toolUseId: asString(block.tool_use_id),
    text: contentText(block.content),
    isError: block.is_error === true,
  };
}

/** The view of an OpenAI Chat Completions request. */
export function openaiView(body: JsonRecord, requestIndex: number): FakeRequestView {
  const messages = asArray(body.messages).map(asRecord);
  const entries: Conversation["entries"][number][] = [];
  const system: string[] = [];
  for (const message of messages) {
    if (message.role === "system" || message.role === "developer") system.push(contentText(message.content));
    if (message.role === "user") entries.push({ prompt: contentText(message.content) });
    if (message.role === "tool") {
      const result = {
        toolUseId: asString(message.tool_call_id),
        text: contentText(message.content),
        isError: false,
      };
      entries.push({ results: [result] });
    }
  }
  const tools = asArray(body.tools)
    .map((tool) => asRecord(asRecord(tool).function))
    .filter((fn) => typeof fn.name === "string")
    .map((fn) => ({ name: asString(fn.name), properties: schemaProperties(fn.parameters) }));
  return assemble("openai", body, requestIndex, {
    system: system.join("\n"),
    tools,
    entries,
    messageCount: messages.length,
  });
}
