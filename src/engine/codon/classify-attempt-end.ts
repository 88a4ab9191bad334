import { constants } from "node:os";
import type { TerminateOn } from "../../hank/schema/index.ts";
import type { FailureReason } from "../../harness/failure-reason.ts";
import type { AgentProcessExit } from "../../harness/harness.ts";
import type { ActiveCodonStatus, CodonEndReasons, EndReason, ExitStatus } from "../../journal/index.ts";
import type { CodonLimits } from "../budget/index.ts";
import type { SessionsResult } from "../session/run-sessions.ts";
import { type AttemptEnd, endReasonsOf, NO_LAYERS } from "./attempt-end.ts";
import { codonResultOf } from "./codon-result.ts";
import { budgetExceededFailure } from "./failure-policy.ts";

/** Everything the classification reads: how the sessions ended, and the codon facts that decide it. */
export interface AttemptEndInput {
  readonly sessions: SessionsResult;
  readonly limits: CodonLimits;
  /** The codon's loop condition: in a `contextExceeded` loop, running out of context is success. */
  readonly terminateOn: TerminateOn | undefined;
  /** From the attempt's start (before rig setup) to now. */
  readonly durationMs: number;
}

const ERROR_EXIT: ExitStatus = { type: "error", code: 1 };

/**
 * The exit status of a session the engine stopped: how the agent's process really ended when the
 * harness ran one, and `none` when there was no process to end (an in-process SDK session, the
 * scripted agent), never an invented `killed SIGTERM`.
 */
function stoppedExit(process: AgentProcessExit | undefined): ExitStatus {
  if (process === undefined) return { type: "none" };
  if (process.signal !== null) return { type: "killed", signal: process.signal };
  if (process.exitCode === null) return { type: "none" };
  if (process.exitCode === 0) return { type: "success" };
  // A process that handles the runtime's signal and exits with 128 + its number (pi exits 143 on
  // SIGTERM) was ended by that signal, as a shell reports it.
  const signal = signalNamed(process.exitCode - 128);
  return signal === undefined ? { type: "error", code: process.exitCode } : { type: "killed", signal };
}

function signalNamed(number: number): string | undefined {
  if (number <= 0) return undefined;
  return Object.entries(constants.signals).find(([, value]) => value === number)?.[0];
}

/**
 * How an attempt that ran the agent ended. Pure. The engine's own stops (budget, idle timeout, cancel)
 * are decided first, so a session the engine cut short is never read as the agent's own end; then the
 * session's outcome decides.
 */
export function classifyAttemptEnd(input: AttemptEndInput): AttemptEnd {
  const ends = endsOf(input);
  return engineStop(input, ends) ?? agentEnd(input, ends);
}

/** The three shapes an attempt's end takes, over the facts every end carries. */
interface Ends {
  success(contextExceeded: boolean, codon?: EndReason): AttemptEnd;
  failure(reason: FailureReason, codon: EndReason, killed?: boolean): AttemptEnd;
  cancelled(): AttemptEnd;
}

function endsOf(input: AttemptEndInput): Ends {
  const { sessions, limits } = input;
  const { last } = sessions;
  const facts = {
    costUsd: last.costUsd,
    durationMs: input.durationMs,
    ...(last.sessionId !== undefined && { sessionId: last.sessionId }),
    changedPaths: sessions.changedPaths,
    limits,
    ...(last.exceeded !== undefined && { budgetExceeded: last.exceeded }),
    result: codonResultOf({ ...sessions, costUsd: last.costUsd }),
  };
  const failedDuring = sessions.started ? "running" : "initializing";
  const reasons = (codon: EndReason): CodonEndReasons => endReasonsOf(last.outcome.layers, codon);
  const stopped = stoppedExit(last.outcome.process);
  return {
    success: (contextExceeded, codon = "completed") => ({
      ...facts,
      kind: "success",
      contextExceeded,
      endReasons: reasons(codon),
      exitStatus: codon === "aborted" ? stopped : { type: "success" },
    }),
    failure: (reason, codon, killed = false) => ({
      ...facts,
      kind: "failure",
      reason,
      failedDuring,
      endReasons: reasons(codon),
      exitStatus: killed ? stopped : ERROR_EXIT,
    }),
    cancelled: () => ({
      ...facts,
      kind: "cancelled",
      failedDuring,
      endReasons: reasons("aborted"),
      exitStatus: stopped,
    }),
  };
}

/** The engine stopped the session: its budget tripped, the agent fell silent, or the run was cancelled. */
function engineStop(input: AttemptEndInput, ends: Ends): AttemptEnd | undefined {
  const { last, idleTimeoutMs } = input.sessions;
  if (last.stopCause === "budget" && last.exceeded !== undefined) {
    return input.limits.onExceeded === "complete"
      ? ends.success(false, "aborted")
      : ends.failure(budgetExceededFailure(last.exceeded), "aborted", true);
  }
  if (last.stopCause === "idle-timeout") {
    const message = `Idle timeout: no events received for ${idleTimeoutMs}ms`;
    return ends.failure({ type: "timeout", retriable: true, message }, "error", true);
  }
  if (last.stopCause === "cancelled") return ends.cancelled();
  return undefined;
}

/** The session ended on its own: its outcome decides. */
function agentEnd(input: AttemptEndInput, ends: Ends): AttemptEnd {
  const { outcome } = input.sessions.last;
  switch (outcome.kind) {
    case "completed":
      return ends.success(false);
    case "context-exceeded":
      // In a contextExceeded loop either signal ends the loop; after extensions it is the intended end;
      // with autoCompact a compaction is absorbed (the session compacted and finished its work).
      if (input.terminateOn?.type === "contextExceeded" || input.sessions.extensions > 0)
        return ends.success(true);
      if (outcome.via === "compaction") return ends.success(false);
      return ends.failure(
        {
          type: "api-error",
          retriable: false,
          message: `Context window exceeded (${outcome.via}); only a contextExceeded loop ends on context exhaustion`,
        },
        "error",
      );
    case "max-tokens":
      return ends.failure({ type: "api-error", retriable: false, message: outcome.message }, "max-tokens");
    case "failed":
      return ends.failure(outcome.reason, "error");
    case "aborted":
      return ends.failure(
        { type: "unknown", retriable: true, message: `Session aborted: ${outcome.reason}` },
        "aborted",
        true,
      );
  }
}

/**
 * An attempt that failed before any agent session ran (rig setup, prompts, model, harness, nothing to
 * resume). Such a failure is permanent: trying again would meet the same configuration.
 */
export function failedBeforeSession(
  failedDuring: ActiveCodonStatus,
  message: string,
  durationMs: number,
  limits: CodonLimits,
  reason: FailureReason = { type: "unknown", retriable: false, message },
): AttemptEnd {
  return {
    kind: "failure",
    reason,
    failedDuring,
    costUsd: 0,
    durationMs,
    endReasons: { ...NO_LAYERS, codon: "error" },
    exitStatus: ERROR_EXIT,
    changedPaths: null,
    limits,
  };
}

/** An attempt the run's cancel stopped after rig setup and before the agent started: no agent process ran. */
export function cancelledBeforeSession(durationMs: number, limits: CodonLimits): AttemptEnd {
  return {
    kind: "cancelled",
    failedDuring: "preparing",
    costUsd: 0,
    durationMs,
    endReasons: { ...NO_LAYERS, codon: "aborted" },
    exitStatus: { type: "none" },
    changedPaths: null,
    limits,
  };
}
