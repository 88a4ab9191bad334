import { parseRuntimeId } from "../../util/runtime-id.ts";
import { type EndReason, worstEndReason } from "../end-reason.ts";
import type { FailureReason } from "../failure-reason.ts";
import type { HarnessEvent, SessionOutcome, SessionRequest, SessionTotals } from "../harness.ts";
import type { ResolvedScriptedOptions } from "./scripted-options.ts";
import type { ScriptedSessionState } from "./session-store.ts";

/** The mutable state of one scripted turn (one prompt, run from its first directive to a stop). */
export interface ScriptedTurn {
  readonly request: SessionRequest;
  readonly options: ResolvedScriptedOptions;
  readonly session: ScriptedSessionState;
  readonly emit: (event: HarnessEvent) => void;
  /** The loop iteration of the codon (from its runtime id `edit#2`); undefined outside loops. */
  readonly iteration: number | undefined;
  /** Characters the "model" produced: text, thinking and tool-call arguments (for the default usage). */
  emittedChars: number;
  /** The last assistant text, reported as the result text. */
  lastText: string | undefined;
  /** Reason of the last tool batch; completed when there was none. */
  toolBatch: EndReason;
  /**
   * The worst end reason of the steps the turn went on after (a response cut at max tokens, a tool
   * call refused): the turn layer keeps it even when later steps finish, so it is never hidden.
   */
  worstStep: EndReason;
  /** Set by `@max-tokens continue`: the turn's outcome is max-tokens with this message. */
  truncation: string | undefined;
  totals: {
    inputTokens: number;
    outputTokens: number;
    cacheCreationTokens: number;
    cacheReadTokens: number;
    costUsd: number;
  };
}

/** Why a turn stopped before the end of its script; `stream` is the last model stream's end reason. */
export type TurnStop =
  | { readonly kind: "failed"; readonly reason: FailureReason; readonly stream: EndReason }
  | { readonly kind: "context-exceeded"; readonly via: "overflow" | "compaction"; readonly stream: EndReason }
  | { readonly kind: "max-tokens"; readonly message: string; readonly stream: EndReason }
  | { readonly kind: "aborted"; readonly reason: string; readonly stream: EndReason };

export function createTurn(
  request: SessionRequest,
  options: ResolvedScriptedOptions,
  session: ScriptedSessionState,
  emit: (event: HarnessEvent) => void,
): ScriptedTurn {
  return {
    request,
    options,
    session,
    emit,
    iteration: parseRuntimeId(request.codonId).iteration,
    emittedChars: 0,
    lastText: undefined,
    toolBatch: "completed",
    worstStep: "completed",
    truncation: undefined,
    totals: { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, costUsd: 0 },
  };
}

export function turnTotals(turn: ScriptedTurn): SessionTotals {
  return { ...turn.totals };
}

/** The outcome reason of an abort: the signal's reason as text, or "aborted" when it has none. */
export function abortReason(signal: AbortSignal): string {
  return signal.reason === undefined ? "aborted" : String(signal.reason);
}

export function abortedStop(turn: ScriptedTurn): TurnStop {
  return { kind: "aborted", reason: abortReason(turn.request.signal), stream: "aborted" };
}

/**
 * Reports `turn.ended` and the outcome. The turn layer is the worst of the last stream, the last tool
 * batch and every step the turn went on after; a truncation the turn went on after makes the outcome
 * max-tokens when nothing stopped the turn, because its tool call never ran.
 */
export function finishTurn(turn: ScriptedTurn, stop: TurnStop | undefined): SessionOutcome {
  const stream: EndReason = stop?.stream ?? "completed";
  const turnReason = worstEndReason(worstEndReason(stream, turn.toolBatch), turn.worstStep);
  const layers = { stream, toolBatch: turn.toolBatch, turn: turnReason };
  turn.emit({ type: "turn.ended", reason: layers.turn });
  const base = { sessionId: turn.session.id, layers, totals: turnTotals(turn) };
  const ended = stop ?? (turn.truncation === undefined ? undefined : maxTokensEnd(turn.truncation));
  if (ended === undefined) {
    return turn.lastText === undefined
      ? { kind: "completed", ...base }
      : { kind: "completed", ...base, resultText: turn.lastText };
  }
  switch (ended.kind) {
    case "failed":
      return { kind: "failed", ...base, reason: ended.reason, sessionEstablished: true };
    case "context-exceeded":
      return { kind: "context-exceeded", ...base, via: ended.via };
    case "max-tokens":
      return { kind: "max-tokens", ...base, message: ended.message };
    case "aborted":
      return { kind: "aborted", ...base, reason: ended.reason };
  }
}

function maxTokensEnd(message: string): TurnStop {
  return { kind: "max-tokens", message, stream: "completed" };
}
