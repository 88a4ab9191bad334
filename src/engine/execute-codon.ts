import type { FailureReason } from "../harness/failure-reason.ts";
import type { DataOf } from "../journal/index.ts";
import type { CodonFinish, ExecutionPlan, PlannedCodon } from "../plan/index.ts";
import type { Codon, TerminateOn } from "../spec/schema/index.ts";
import type { AttemptEnd, ResumeTarget } from "./attempt-types.ts";
import type { BudgetExceeded, CodonLimits } from "./budget/index.ts";
import { resolveLimits } from "./budget-input.ts";
import { scopeOfLimit } from "./budget-scope.ts";
import { sleep } from "./clock.ts";
import type { EngineDeps, EngineInput } from "./engine-types.ts";
import type { EventDraftOf } from "./event-sink.ts";
import { type FailureAction, resolveFailureAction } from "./failure-policy.ts";
import { runAttempt } from "./run-attempt.ts";
import type { Transitions } from "./transitions.ts";

export interface CodonExecution {
  readonly entry: PlannedCodon;
  readonly codon: Codon;
  readonly terminateOn?: TerminateOn;
  readonly plan: ExecutionPlan;
  readonly runId: string;
  readonly resume?: ResumeTarget;
  readonly input: EngineInput;
  /** `runAgentEnv(input.processEnv)`, computed once per run; each attempt adds the codon's `env`. */
  readonly agentEnv: Readonly<Record<string, string>>;
  readonly deps: EngineDeps;
  readonly transitions: Transitions;
}

/** How a codon ended, for the plan; `runFailure` says why the run cannot go on. */
export interface CodonOutcome {
  readonly finish: CodonFinish;
  /**
   * The codon's final `codon.completed` (and its narration), not yet emitted: the driver emits them in
   * one journal write with the loop decision they cause, so a crash never separates the two.
   */
  readonly pending: readonly EventDraftOf[];
  /** The limits the last attempt ran under and what tripped, for the budget summary. */
  readonly limits?: CodonLimits;
  readonly exceeded?: BudgetExceeded;
  readonly runFailure?: string;
  readonly cancelled?: boolean;
  readonly sessionExhausted?: boolean;
}

/**
 * Runs a planned codon to its end: attempts, the failure policy between them, workspace hooks, and one
 * `codon.completed` per attempt. Attempt numbers continue from the journal, so a restart does not reset
 * a codon's retry count.
 */
export async function executeCodon(exec: CodonExecution): Promise<CodonOutcome> {
  const { deps, entry } = exec;
  let attempt = (deps.sink.codon(entry.runtimeId)?.attempts ?? 0) + 1;
  while (true) {
    const limits = resolveLimits(
      exec.input.hank,
      exec.plan,
      entry,
      exec.codon,
      deps.sink,
      exec.input.options,
    );
    const end = await runAttempt({ ...exec, attempt, limits });
    const hookProblem = await finishHook(exec, end, attempt);
    if (end.kind === "cancelled") {
      const pending = [
        completed(exec, end, attempt, { type: "unknown", retriable: true, message: "Run cancelled" }),
      ];
      return { finish: { kind: "failed" }, cancelled: true, pending };
    }
    if (hookProblem !== undefined) {
      const reason: FailureReason = { type: "unknown", retriable: false, message: hookProblem };
      const pending = [completed(exec, failedByHook(end, reason), attempt, reason)];
      return { finish: { kind: "failed" }, runFailure: hookProblem, pending };
    }
    if (end.kind === "success") return withBudget(succeed(exec, end, attempt), end);
    const action = resolveFailureAction({
      onFailure: exec.codon.onFailure,
      reason: end.reason,
      attempt,
      retryConfig: exec.codon.retryConfig,
      headless: exec.input.options.headless,
    });
    if (action.kind !== "retry") return withBudget(failFor(exec, end, attempt, action), end);
    deps.sink.emitAll([completed(exec, end, attempt, end.reason)]);
    deps.sink.emit("info", {
      message: `Retrying codon ${entry.runtimeId} (attempt ${action.nextAttempt} of ${action.maxAttempts}) in ${action.delayMs}ms: ${end.reason.message}`,
    });
    try {
      await sleep(deps.clock, action.delayMs, deps.signal);
    } catch {
      return { finish: { kind: "failed" }, cancelled: true, pending: [] };
    }
    attempt = action.nextAttempt;
  }
}

/**
 * An attempt whose finish hook failed (checkpoint, outputs, archive) is a failed attempt even when the
 * agent succeeded: its `codon.completed` must not say `success`, or a resumed run would skip the codon.
 */
function failedByHook(end: AttemptEnd, reason: FailureReason): AttemptEnd {
  if (end.kind !== "success") return end;
  const { contextExceeded: _, ...facts } = end;
  return {
    ...facts,
    kind: "failure",
    reason,
    failedDuring: "running",
    endReasons: { ...end.endReasons, codon: "error" },
  };
}

function withBudget(outcome: CodonOutcome, end: AttemptEnd): CodonOutcome {
  return {
    ...outcome,
    ...(end.limits !== undefined && { limits: end.limits }),
    ...(end.budgetExceeded !== undefined && { exceeded: end.budgetExceeded }),
  };
}

async function finishHook(
  exec: CodonExecution,
  end: AttemptEnd,
  attempt: number,
): Promise<string | undefined> {
  const hook = exec.deps.hooks?.finishCodon;
  if (hook === undefined || end.kind === "cancelled") return undefined;
  const result = await hook({
    entry: exec.entry,
    codon: exec.codon,
    runId: exec.runId,
    attempt,
    success: end.kind === "success",
    changedPaths: end.changedPaths,
  });
  return result.ok ? undefined : result.message;
}

function succeed(
  exec: CodonExecution,
  end: Extract<AttemptEnd, { kind: "success" }>,
  attempt: number,
): CodonOutcome {
  exec.transitions.codon(exec.entry.runtimeId, "completing-sentinels");
  const done = completed(exec, end, attempt, undefined);
  if (end.contextExceeded && exec.terminateOn?.type === "contextExceeded") {
    const info: EventDraftOf = {
      type: "info",
      data: { message: `Codon ${exec.entry.runtimeId} completed successfully due to context exceeded` },
    };
    return { finish: { kind: "context-exceeded" }, sessionExhausted: true, pending: [done, info] };
  }
  if (end.budgetExceeded !== undefined) {
    const limit = end.limits?.[end.budgetExceeded.currency];
    return { finish: { kind: "budget-exceeded", scope: scopeOfLimit(limit?.source) }, pending: [done] };
  }
  return { finish: { kind: "completed" }, sessionExhausted: end.contextExceeded, pending: [done] };
}

function failFor(
  exec: CodonExecution,
  end: Extract<AttemptEnd, { kind: "failure" }>,
  attempt: number,
  action: Exclude<FailureAction, { kind: "retry" }>,
): CodonOutcome {
  if (action.kind === "ignore") {
    return { finish: { kind: "failed-ignored" }, pending: [completed(exec, end, attempt, end.reason, true)] };
  }
  const pending = [completed(exec, end, attempt, end.reason)];
  const why =
    action.kind === "stay-active"
      ? "no client is attached to retry it"
      : action.cause === "headless-abort"
        ? "retriable, but onFailure is 'abort' and --headless has no client to retry it"
        : action.cause === "retries-exhausted"
          ? "retries exhausted"
          : "permanent failure";
  return {
    finish: { kind: "failed" },
    runFailure: `Codon ${exec.entry.runtimeId} failed (${why}): ${end.reason.message}`,
    pending,
  };
}

function completed(
  exec: CodonExecution,
  end: AttemptEnd,
  attempt: number,
  reason: FailureReason | undefined,
  ignored = false,
): EventDraftOf {
  const success = end.kind === "success";
  const data: DataOf<"codon.completed"> = {
    codonId: exec.entry.runtimeId,
    success,
    cost: end.costUsd,
    duration: end.durationMs,
    exitStatus: end.exitStatus,
    ...(reason !== undefined && { failureReason: reason }),
    ...(ignored && { failureIgnored: true }),
    ...(end.budgetExceeded !== undefined && {
      budgetExceeded: {
        currency: end.budgetExceeded.currency,
        limit: end.budgetExceeded.limit,
        used: end.budgetExceeded.used,
      },
    }),
    endReasons: end.endReasons,
    attempt,
    ...(end.kind !== "success" && { failedDuring: end.failedDuring }),
  };
  return { type: "codon.completed", data };
}
