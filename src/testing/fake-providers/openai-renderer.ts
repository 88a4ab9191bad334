import { sseFrame } from "./deliver.ts";
import type { FakeHttpFault } from "./fake-types.ts";
import type { PlannedAnswer } from "./plan-answer.ts";
import {
  type ErrorResponse,
  type ProviderRenderer,
  type ResponseIds,
  retryAfterHeaders,
} from "./provider-renderer.ts";

const FINISH_REASON = { end: "stop", tool: "tool_calls", "max-tokens": "length" } as const;

const completionId = (ids: ResponseIds): string => `chatcmpl-fake-${ids.requestIndex}`;
const callId = (ids: ResponseIds, position: number): string => `call_fake_${ids.requestIndex}_${position}`;

function usageOf(answer: PlannedAnswer): unknown {
  const { inputTokens, outputTokens, cacheReadTokens } = answer.usage;
  // prompt_tokens counts cached tokens too; the details say how many of them were cached.
  const promptTokens = inputTokens + cacheReadTokens;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: outputTokens,
    total_tokens: promptTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: cacheReadTokens },
  };
}

function streamFrames(answer: PlannedAnswer, ids: ResponseIds): string[] {
  const base = {
    id: completionId(ids),
    object: "chat.completion.chunk",
    created: ids.created,
    model: ids.model,
  };
  const chunk = (delta: unknown, finish: string | null = null): string =>
    sseFrame(undefined, { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const frames = [chunk({ role: "assistant", content: "" })];
  for (const content of answer.textPieces) frames.push(chunk({ content }));
  answer.calls.forEach((call, position) => {
    const opening = { index: position, id: callId(ids, position), type: "function" };
    frames.push(chunk({ tool_calls: [{ ...opening, function: { name: call.name, arguments: "" } }] }));
    for (const piece of call.argumentPieces) {
      frames.push(chunk({ tool_calls: [{ index: position, function: { arguments: piece } }] }));
    }
  });
  frames.push(chunk({}, FINISH_REASON[answer.stop]));
  frames.push(sseFrame(undefined, { ...base, choices: [], usage: usageOf(answer) }));
  frames.push(sseFrame(undefined, "[DONE]"));
  return frames;
}

function message(answer: PlannedAnswer, ids: ResponseIds): unknown {
  const text = answer.textPieces.join("");
  const toolCalls = answer.calls.map((call, position) => ({
    id: callId(ids, position),
    type: "function",
    function: { name: call.name, arguments: call.argumentPieces.join("") },
  }));
  const reply = {
    role: "assistant",
    content: text === "" ? null : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  return {
    id: completionId(ids),
    object: "chat.completion",
    created: ids.created,
    model: ids.model,
    choices: [{ index: 0, message: reply, logprobs: null, finish_reason: FINISH_REASON[answer.stop] }],
    usage: usageOf(answer),
  };
}

/** `{error:{message, type, param, code}}`, the OpenAI error body. */
export function openaiErrorBody(
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
): unknown {
  return { error: { message, type, param, code } };
}

function error(fault: FakeHttpFault): ErrorResponse {
  const headers = retryAfterHeaders(fault);
  switch (fault.type) {
    case "rate-limit": {
      const text = fault.message ?? "Rate limit reached for requests";
      return { status: 429, body: openaiErrorBody(text, "requests", "rate_limit_exceeded"), headers };
    }
    case "server-error": {
      const text = fault.message ?? "The server had an error while processing your request.";
      return { status: 500, body: openaiErrorBody(text, "server_error", null), headers };
    }
    case "overloaded": {
      const text = fault.message ?? "The engine is currently overloaded, please try again later.";
      return { status: 503, body: openaiErrorBody(text, "server_error", null), headers };
    }
    case "prompt-too-long": {
      const text =
        fault.message ??
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 210000 tokens. Please reduce the length of the messages.";
      const body = openaiErrorBody(text, "invalid_request_error", "context_length_exceeded", "messages");
      return { status: 400, body, headers };
    }
    case "http-error":
      return { status: fault.status, body: openaiErrorBody(fault.message, fault.errorType, null), headers };
  }
}

export const openaiRenderer: ProviderRenderer = { streamFrames, message, error };
