import {
  classifyFailureText,
  classifyStructured,
  exitWithoutResult,
  isContextOverflow,
} from "../classify-failure.ts";
import { type EndReason, type LayerEndReasons, worstEndReason } from "../end-reason.ts";
import type { FailureReason } from "../failure-reason.ts";
import type { SessionOutcome, SessionTotals } from "../harness.ts";
import { endReasonOfStop } from "./stop-reason.ts";

/** The `result` message, reduced to what decides the outcome. */
export interface ResultFacts {
  readonly subtype: string;
  readonly isError: boolean;
  /** `result` text, or the `errors` of an error subtype. */
  readonly text: string;
  readonly apiErrorStatus?: number;
  readonly apiErrorType?: string;
  readonly terminalReason?: string;
}

/** Everything a finished session left behind. */
export interface SessionFacts {
  readonly sessionId?: string;
  /** `system/init` arrived: Claude Code started a session. */
  readonly established: boolean;
  readonly result?: ResultFacts;
  /** What the SDK threw when no result arrived. */
  readonly thrown?: string;
  readonly stderrTail: string;
  /** Set when the request's signal aborted the session. */
  readonly abortReason?: string;
  /** The tool call the truncation guard stopped. */
  readonly truncatedTool?: string;
  /** An automatic compaction happened (only counted with autoCompact). */
  readonly compacted: boolean;
  /** Claude Code's wait before its last in-session retry of a 429, honouring the provider's Retry-After. */
  readonly rateLimitRetryMs?: number;
  /** Stop reason of the last main-thread response. */
  readonly lastStop: string | null;
  /** The worst stream end over all responses of the turn. */
  readonly worstStream: EndReason;
  readonly toolsPending: boolean;
  readonly totals: SessionTotals;
}

/** Terminal reasons with which Claude Code reports a full context window. */
const OVERFLOW_TERMINALS: ReadonlySet<string> = new Set(["prompt_too_long", "blocking_limit"]);

/**
 * The outcome of a Claude session (pure). Order: a stopped truncated tool call is `max-tokens`; a
 * cancel is `aborted` unless a successful result beat it; a result decides the rest (`is_error`, not
 * `subtype`: an API error comes as `subtype: "success"` with `is_error: true`); without a result the
 * SDK's error text and Claude Code's stderr are classified.
 */
export function decideOutcome(facts: SessionFacts): SessionOutcome {
  const base = {
    ...(facts.sessionId !== undefined && { sessionId: facts.sessionId }),
    totals: facts.totals,
  };
  const layered = (stream: EndReason, toolBatch: EndReason = "completed"): LayerEndReasons => ({
    stream,
    toolBatch,
    turn: worstEndReason(worstEndReason(stream, toolBatch), facts.worstStream),
  });
  if (facts.truncatedTool !== undefined) {
    const message = `Output stopped at the max output tokens limit in the middle of a ${facts.truncatedTool} tool call; the call was not executed`;
    return { kind: "max-tokens", message, layers: layered("max-tokens"), ...base };
  }
  const { result } = facts;
  if (facts.abortReason !== undefined && (result === undefined || result.isError)) {
    const layers = layered("aborted", facts.toolsPending ? "aborted" : "completed");
    return { kind: "aborted", reason: facts.abortReason, layers, ...base };
  }
  if (result !== undefined && !result.isError) {
    if (facts.compacted)
      return { kind: "context-exceeded", via: "compaction", layers: layered("completed"), ...base };
    const resultText = result.text === "" ? {} : { resultText: result.text };
    return {
      kind: "completed",
      layers: layered(endReasonOfStop(facts.lastStop ?? "end_turn")),
      ...base,
      ...resultText,
    };
  }
  if (isOverflow(facts))
    return { kind: "context-exceeded", via: "overflow", layers: layered("error"), ...base };
  const reason = result === undefined ? failureWithoutResult(facts) : failureOfResult(result, facts);
  return { kind: "failed", reason, sessionEstablished: facts.established, layers: layered("error"), ...base };
}

function isOverflow(facts: SessionFacts): boolean {
  const { result } = facts;
  if (result === undefined) return isContextOverflow(`${facts.thrown ?? ""}\n${facts.stderrTail}`);
  if (result.terminalReason !== undefined && OVERFLOW_TERMINALS.has(result.terminalReason)) return true;
  return isContextOverflow({
    message: result.text,
    ...(result.apiErrorType !== undefined && { errorType: result.apiErrorType }),
  });
}

function failureOfResult(result: ResultFacts, facts: SessionFacts): FailureReason {
  if (result.subtype === "error_max_turns" || result.subtype === "error_max_budget_usd") {
    const limit = result.subtype === "error_max_turns" ? "turn limit" : "budget limit";
    return {
      type: "unknown",
      retriable: false,
      message: `Claude Code stopped at its ${limit}: ${result.text}`,
    };
  }
  const retryAfterMs = result.apiErrorStatus === 429 ? facts.rateLimitRetryMs : undefined;
  return classifyStructured(
    {
      message: result.text,
      ...(result.apiErrorStatus !== undefined && { status: result.apiErrorStatus }),
      // The type only when there is no status: the status decides, and the text stays Claude Code's.
      ...(result.apiErrorStatus === undefined &&
        result.apiErrorType !== undefined && { errorType: result.apiErrorType }),
      ...(retryAfterMs !== undefined && { retryAfterMs }),
    },
    facts.established,
  );
}

/**
 * No result: Claude Code failed to start, crashed, or the SDK gave up. Before a session exists the
 * text decides (a local setup error is permanent, a transport error retriable); after, a process exit
 * is the reference's "exited without a result message", with the detail appended.
 */
function failureWithoutResult(facts: SessionFacts): FailureReason {
  const detail = [facts.thrown, facts.stderrTail.trim()]
    .filter((part) => part !== undefined && part !== "")
    .join("\n");
  if (facts.thrown === undefined && detail === "") return exitWithoutResult(null, facts.established);
  if (!facts.established) return classifyFailureText(detail, false);
  const exit = /exited with code (\d+)/.exec(detail);
  if (exit?.[1] === undefined) return classifyFailureText(detail, true);
  const reason = exitWithoutResult(Number(exit[1]), true);
  return { ...reason, message: `${reason.message}: ${detail}` };
}
