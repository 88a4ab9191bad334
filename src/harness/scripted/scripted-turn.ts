import type { EndReason } from "../end-reason.ts";
import type { FailureReason } from "../failure-reason.ts";
import type { HarnessEvent, SessionRequest, SessionTotals } from "../harness.ts";
import type { ResolvedScriptedOptions } from "./scripted-options.ts";
import type { ScriptedSessionState } from "./session-store.ts";

/** The mutable state of one scripted turn (one prompt, run from its first directive to a stop). */
export interface ScriptedTurn {
  readonly request: SessionRequest;
  readonly options: ResolvedScriptedOptions;
  readonly session: ScriptedSessionState;
  readonly emit: (event: HarnessEvent) => void;
  /** Characters the "model" produced: text, thinking and tool-call arguments (for the default usage). */
  emittedChars: number;
  /** The last assistant text, reported as the result text. */
  lastText: string | undefined;
  /** Reason of the last tool batch; completed when there was none. */
  toolBatch: EndReason;
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
    emittedChars: 0,
    lastText: undefined,
    toolBatch: "completed",
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
