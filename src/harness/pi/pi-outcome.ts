import { classifyFailureText, classifyStructured } from "../classify-failure.ts";
import { type LayerEndReasons, worstEndReason } from "../end-reason.ts";
import type { FailureReason } from "../failure-reason.ts";
import type { SessionOutcome, SessionTotals } from "../harness.ts";
import type { MappedSession } from "./pi-event-mapper.ts";

/** Everything the outcome depends on, gathered by the driver. */
export interface PiOutcomeFacts {
  readonly sessionId: string;
  readonly mapped: MappedSession;
  /** Set when the session's signal fired: the engine (or a caller) cancelled it. */
  readonly abortReason: string | undefined;
  /** Set when pi refused the prompt before the agent ran (its preflight threw). */
  readonly refusal: string | undefined;
  /** The last response's error is a context-window overflow. */
  readonly overflow: boolean;
  /** The harness compacted the session after that overflow (autoCompact). */
  readonly compacted: boolean;
  /** The model's output token limit, for the max-tokens message. */
  readonly maxTokens: number;
}

/** Node's fetch (undici) reports a response body cut off in transfer as a bare "terminated". */
const BODY_TERMINATED = "terminated";

/**
 * pi keeps a provider error as text only. The OpenAI and Anthropic clients start it with the HTTP
 * status, which is read as a structured field; a bare "terminated" is a connection cut mid-response.
 */
export function classifyPiError(text: string): FailureReason {
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === BODY_TERMINATED) {
    return classifyFailureText("connection closed: the response stream was terminated", true);
  }
  const status = /^(\d{3})\b/.exec(trimmed)?.[1];
  return status === undefined
    ? classifyFailureText(trimmed, true)
    : classifyStructured({ status: Number(status), message: trimmed }, true);
}

function maxTokensMessage(maxTokens: number, calls: readonly string[]): string {
  const head = `The response was cut off at the model's output token limit (max tokens ${maxTokens})`;
  if (calls.length === 0) return head;
  const noun = calls.length === 1 ? "call" : "calls";
  return `${head}; the truncated tool ${noun} ${calls.join(", ")} ${calls.length === 1 ? "was" : "were"} not executed`;
}

const ERRORED = (layers: LayerEndReasons): LayerEndReasons => ({
  ...layers,
  stream: "error",
  turn: worstEndReason(layers.turn, "error"),
});

/**
 * How a pi session ended, in order: a delivered cancel; a refusal before any request; a response cut
 * off at max tokens (its tool calls were not run); an errored response (a context overflow, or a
 * provider failure classified by the shared rules); a completed prompt.
 */
export function decidePiOutcome(facts: PiOutcomeFacts): SessionOutcome {
  const { mapped, sessionId } = facts;
  const { layers } = mapped;
  const totals: SessionTotals = mapped.totals;
  const base = { sessionId, layers, totals };
  if (facts.abortReason !== undefined) {
    return { ...base, kind: "aborted", reason: facts.abortReason, layers: abortedLayers(layers) };
  }
  const last = mapped.lastAssistant;
  if (last === undefined) {
    const reason = classifyFailureText(facts.refusal ?? "pi ended the prompt without a response", false);
    return { ...base, kind: "failed", reason, sessionEstablished: false, layers: ERRORED(layers) };
  }
  if (last.stopReason === "length" || mapped.truncatedCalls.length > 0) {
    return { ...base, kind: "max-tokens", message: maxTokensMessage(facts.maxTokens, mapped.truncatedCalls) };
  }
  if (last.stopReason === "error") {
    if (facts.overflow)
      return { ...base, kind: "context-exceeded", via: facts.compacted ? "compaction" : "overflow" };
    const reason = classifyPiError(last.errorMessage ?? "");
    return { ...base, kind: "failed", reason, sessionEstablished: true };
  }
  if (last.stopReason === "aborted") {
    return { ...base, kind: "aborted", reason: last.errorMessage ?? "aborted" };
  }
  return mapped.resultText === undefined
    ? { ...base, kind: "completed" }
    : { ...base, kind: "completed", resultText: mapped.resultText };
}

function abortedLayers(layers: LayerEndReasons): LayerEndReasons {
  return { ...layers, turn: worstEndReason(layers.turn, "aborted") };
}
