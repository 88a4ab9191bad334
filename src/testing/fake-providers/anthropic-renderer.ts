import { sseFrame } from "./deliver.ts";
import type { FakeHttpFault } from "./fake-types.ts";
import type { PlannedAnswer, PlannedCall } from "./plan-answer.ts";
import {
  type ErrorResponse,
  type ProviderRenderer,
  type ResponseIds,
  retryAfterHeaders,
} from "./provider-renderer.ts";

const STOP_REASON = { end: "end_turn", tool: "tool_use", "max-tokens": "max_tokens" } as const;

const messageId = (ids: ResponseIds): string => `msg_fake_${ids.requestIndex}`;
const toolUseId = (ids: ResponseIds, call: PlannedCall): string =>
  `toolu_fake_${ids.requestIndex}_${call.index}`;

function event(type: string, fields: Readonly<Record<string, unknown>> = {}): string {
  return sseFrame(type, { type, ...fields });
}

function messageStart(answer: PlannedAnswer, ids: ResponseIds): string {
  const usage = {
    input_tokens: answer.usage.inputTokens,
    output_tokens: 1,
    cache_creation_input_tokens: answer.usage.cacheWriteTokens,
    cache_read_input_tokens: answer.usage.cacheReadTokens,
  };
  const message = {
    id: messageId(ids),
    type: "message",
    role: "assistant",
    model: ids.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage,
  };
  return event("message_start", { message });
}

function textBlock(pieces: readonly string[]): string[] {
  if (pieces.length === 0) return [];
  return [
    event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
    ...pieces.map((text) => event("content_block_delta", { index: 0, delta: { type: "text_delta", text } })),
    event("content_block_stop", { index: 0 }),
  ];
}

function toolBlock(call: PlannedCall, ids: ResponseIds): string[] {
  const { index } = call;
  const block = { type: "tool_use", id: toolUseId(ids, call), name: call.name, input: {} };
  return [
    event("content_block_start", { index, content_block: block }),
    ...call.argumentPieces.map((partial_json) =>
      event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } }),
    ),
    event("content_block_stop", { index }),
  ];
}

function streamFrames(answer: PlannedAnswer, ids: ResponseIds): string[] {
  return [
    messageStart(answer, ids),
    ...textBlock(answer.textPieces),
    ...answer.calls.flatMap((call) => toolBlock(call, ids)),
    event("message_delta", {
      delta: { stop_reason: STOP_REASON[answer.stop], stop_sequence: null },
      usage: { output_tokens: answer.usage.outputTokens },
    }),
    event("message_stop"),
  ];
}

/** The non-streaming message. A call cut at max tokens is left out: its JSON cannot be parsed. */
function message(answer: PlannedAnswer, ids: ResponseIds): unknown {
  const text = answer.textPieces.join("");
  const content: unknown[] = text === "" ? [] : [{ type: "text", text }];
  if (answer.stop === "tool") {
    for (const call of answer.calls) {
      const input: unknown = JSON.parse(call.argumentPieces.join(""));
      content.push({ type: "tool_use", id: toolUseId(ids, call), name: call.name, input });
    }
  }
  const usage = {
    input_tokens: answer.usage.inputTokens,
    output_tokens: answer.usage.outputTokens,
    cache_creation_input_tokens: answer.usage.cacheWriteTokens,
    cache_read_input_tokens: answer.usage.cacheReadTokens,
  };
  return {
    id: messageId(ids),
    type: "message",
    role: "assistant",
    model: ids.model,
    content,
    stop_reason: STOP_REASON[answer.stop],
    stop_sequence: null,
    usage,
  };
}

/** `{type:"error", error:{type, message}}`, the Anthropic error body. */
export function anthropicErrorBody(type: string, message: string): unknown {
  return { type: "error", error: { type, message } };
}

function error(fault: FakeHttpFault): ErrorResponse {
  const headers = retryAfterHeaders(fault);
  const respond = (status: number, type: string, message: string): ErrorResponse => ({
    status,
    body: anthropicErrorBody(type, message),
    headers,
  });
  switch (fault.type) {
    case "rate-limit":
      return respond(
        429,
        "rate_limit_error",
        fault.message ?? "Number of requests has exceeded your rate limit",
      );
    case "server-error":
      return respond(500, "api_error", fault.message ?? "Internal server error");
    case "overloaded":
      return respond(529, "overloaded_error", fault.message ?? "Overloaded");
    case "prompt-too-long":
      return respond(
        400,
        "invalid_request_error",
        fault.message ?? "prompt is too long: 210000 tokens > 200000 maximum",
      );
    case "http-error":
      return respond(fault.status, fault.errorType, fault.message);
  }
}

export const anthropicRenderer: ProviderRenderer = { streamFrames, message, error };
