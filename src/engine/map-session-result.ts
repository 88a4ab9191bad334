import type { FailureReason } from "../harness/failure-reason.ts";
import type { CodonEndReasons, EndReason } from "../journal/index.ts";
import type { AttemptContext } from "./attempt-types.ts";
import { type AttemptEnd, endReasonsOf } from "./attempt-types.ts";
import { budgetExceededFailure } from "./failure-policy.ts";
import type { SessionsResult } from "./run-sessions.ts";

/**
 * Turns how the sessions ended into the attempt's end. The engine's own stops (budget, idle, cancel)
 * are decided first, so a session the engine cut short is never read as the agent's own end.
 */
export function mapSessionResult(ctx: AttemptContext, sessions: SessionsResult, startMs: number): AttemptEnd {
  const { last, started } = sessions;
  const { outcome } = last;
  const facts = {
    costUsd: last.costUsd,
    durationMs: ctx.deps.clock.now() - startMs,
    ...(last.sessionId !== undefined && { sessionId: last.sessionId }),
    changedPaths: last.changedPaths,
    limits: ctx.limits,
    ...(last.exceeded !== undefined && { budgetExceeded: last.exceeded }),
  };
  const failedDuring = started ? ("running" as const) : ("initializing" as const);
  const reasons = (codon: EndReason): CodonEndReasons => endReasonsOf(outcome.layers, codon);
  const killed = { type: "killed" as const, signal: "SIGTERM" };
  const failure = (reason: FailureReason, codon: EndReason, killedBy = false): AttemptEnd => ({
    ...facts,
    kind: "failure",
    reason,
    failedDuring,
    endReasons: reasons(codon),
    exitStatus: killedBy ? killed : { type: "error", code: 1 },
  });
  const success = (contextExceeded: boolean, codon: EndReason = "completed"): AttemptEnd => ({
    ...facts,
    kind: "success",
    contextExceeded,
    endReasons: reasons(codon),
    exitStatus: codon === "aborted" ? killed : { type: "success" },
  });

  if (last.stopCause === "budget" && last.exceeded !== undefined) {
    return ctx.limits.onExceeded === "complete"
      ? success(false, "aborted")
      : failure(budgetExceededFailure(last.exceeded), "aborted", true);
  }
  if (last.stopCause === "idle-timeout") {
    const message = `Idle timeout: no events received for ${sessions.idleTimeoutMs}ms`;
    return failure({ type: "timeout", retriable: true, message }, "error", true);
  }
  if (last.stopCause === "cancelled") {
    return { ...facts, kind: "cancelled", failedDuring, endReasons: reasons("aborted"), exitStatus: killed };
  }
  switch (outcome.kind) {
    case "completed":
      return success(false);
    case "context-exceeded":
      // In a contextExceeded loop either signal ends the loop; after extensions it is the intended end;
      // with autoCompact a compaction is absorbed (the session compacted and finished its work).
      if (ctx.terminateOn?.type === "contextExceeded" || sessions.extensions > 0) return success(true);
      if (outcome.via === "compaction") return success(false);
      return failure(
        {
          type: "api-error",
          retriable: false,
          message: `Context window exceeded (${outcome.via}); only a contextExceeded loop ends on context exhaustion`,
        },
        "error",
      );
    case "max-tokens":
      return failure({ type: "api-error", retriable: false, message: outcome.message }, "max-tokens");
    case "failed":
      return failure(outcome.reason, "error");
    case "aborted":
      return failure(
        { type: "unknown", retriable: true, message: `Session aborted: ${outcome.reason}` },
        "aborted",
        true,
      );
  }
}
