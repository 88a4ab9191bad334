import type { FakeAnswer, FakeRequestView, FakeToolCall } from "./fake-types.ts";

/** A tool call ready to render: the resolved tool name and its JSON arguments, already split. */
export interface PlannedCall {
  readonly index: number;
  readonly name: string;
  readonly argumentPieces: readonly string[];
}

/** A provider-neutral answer ready to render as SSE events or a JSON body. */
export interface PlannedAnswer {
  readonly textPieces: readonly string[];
  readonly calls: readonly PlannedCall[];
  readonly stop: "end" | "tool" | "max-tokens";
  readonly usage: {
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly cacheReadTokens: number;
    readonly cacheWriteTokens: number;
  };
}

const DEFAULT_TEXT_CHUNKS = 2;
const DEFAULT_ARGUMENT_CHUNKS = 3;

/**
 * The tool name to call: the request's tool of exactly that name, else the first whose name matches
 * case-insensitively, else the name as given (the client then reports an unknown tool).
 */
export function resolveToolName(request: FakeRequestView, name: string): string {
  const exact = request.tools.find((tool) => tool.name === name);
  if (exact !== undefined) return exact.name;
  const lower = name.toLowerCase();
  return request.tools.find((tool) => tool.name.toLowerCase() === lower)?.name ?? name;
}

/** Splits text into `count` pieces of nearly equal length (fewer when the text is shorter); "" gives none. */
export function splitPieces(text: string, count: number): string[] {
  if (text === "") return [];
  const n = Math.max(1, Math.min(Math.floor(count), text.length));
  const size = Math.ceil(text.length / n);
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

function planCall(request: FakeRequestView, call: FakeToolCall, index: number, json: string): PlannedCall {
  return {
    index,
    name: resolveToolName(request, call.tool),
    argumentPieces: splitPieces(json, call.argumentChunks ?? DEFAULT_ARGUMENT_CHUNKS),
  };
}

/**
 * Plans an answer. Usage fields not given are estimated at 4 characters per token: input from the
 * request body's size, output from the characters produced (at least 1).
 */
export function planAnswer(request: FakeRequestView, answer: FakeAnswer, bodyChars: number): PlannedAnswer {
  const text = answer.text ?? "";
  const textPieces = splitPieces(
    text,
    answer.type === "text" ? (answer.textChunks ?? DEFAULT_TEXT_CHUNKS) : 1,
  );
  const offset = text === "" ? 0 : 1;
  let calls: PlannedCall[] = [];
  if (answer.type === "tool") {
    calls = answer.calls.map((call, i) => planCall(request, call, i + offset, JSON.stringify(call.input)));
  }
  if (answer.type === "max-tokens") {
    const json = JSON.stringify(answer.call.input);
    const keep = answer.keepChars ?? Math.floor(json.length / 2);
    calls = [planCall(request, answer.call, offset, json.slice(0, Math.max(0, Math.min(keep, json.length))))];
  }
  const produced = text.length + calls.reduce((sum, c) => sum + c.argumentPieces.join("").length, 0);
  const stop = answer.type === "text" ? "end" : answer.type === "tool" ? "tool" : "max-tokens";
  const usage = {
    inputTokens: answer.usage?.inputTokens ?? Math.ceil(bodyChars / 4),
    outputTokens: answer.usage?.outputTokens ?? Math.max(1, Math.ceil(produced / 4)),
    cacheReadTokens: answer.usage?.cacheReadTokens ?? 0,
    cacheWriteTokens: answer.usage?.cacheWriteTokens ?? 0,
  };
  return { textPieces, calls, stop, usage };
}
