import { sleep } from "../../util/clock.ts";
import { startMeter } from "../budget/index.ts";
import { runSessions } from "../session/run-sessions.ts";
import type { Attempt } from "./attempt.ts";
import type { AttemptEnd } from "./attempt-end.ts";
import { cancelledBeforeSession, classifyAttemptEnd, failedBeforeSession } from "./classify-attempt-end.ts";
import type { CodonOutcome } from "./codon-outcome.ts";
import { type AfterAttempt, decideAfterAttempt } from "./decide-after-attempt.ts";

export type { CodonOutcome } from "./codon-outcome.ts";
export type { CodonResult, CodonUsage } from "./codon-result.ts";

/**
 * Runs a planned codon to its end, starting from its first `attempt`. Every attempt takes the same
 * steps, in this order:
 *
 * 1. resolve limits:   the budget the attempt runs under (when the `Attempt` is made)
 * 2. prepare:          the codon's sentinels load; the `prepareCodon` hook runs the rig setup
 *                                                                            (status `preparing`)
 * 3. set up a session: prompts, model, harness, env, idle timeout, resume     (status `starting`)
 * 4. run sessions:     the agent session and its exhaustWithPrompt extensions (`initializing`, `running`);
 *                      `runSessions` -> `runSession` streams the agent's events into the journal as they
 *                      come (`codon.started`, `assistant.action`, `token.usage`, `file.updated`...) and
 *                      stops the session on a budget, an idle timeout or a cancel
 * 5. classify the end: how the attempt ended, as a value (`classifyAttemptEnd`, pure)
 * 6. finish hook:      the `finishCodon` hook: checkpoint, outputs, archive
 * 7. failure policy:   finish the codon, or retry it after a delay (`decideAfterAttempt`, pure)
 *
 * Each attempt ends with one `codon.completed`: a retried attempt's is journaled before the wait; the
 * last one is returned in `pending` for the driver to journal with the loop decision it causes. Attempt
 * numbers continue from the journal, so a restart does not reset a codon's retry count.
 */
export async function executeCodon(first: Attempt): Promise<CodonOutcome> {
  let attempt = first;
  while (true) {
    // 2-5. prepare, set up, run sessions, classify the end
    const end = await runAttempt(attempt);
    // 6. finish hook
    const hookProblem = await finishHook(attempt, end);
    // 7. failure policy: finish, or retry
    const next = decideAfterAttempt({
      runtimeId: attempt.entry.runtimeId,
      attempt: attempt.attempt,
      end,
      hookProblem,
      codon: attempt.codon,
      terminateOn: attempt.terminateOn,
      headless: attempt.run.input.options.headless,
    });
    if (next.kind === "finish") {
      if (next.completing) attempt.status("completing-sentinels");
      return next.outcome;
    }
    if (!(await waitToRetry(attempt, next)))
      return { finish: { kind: "failed" }, cancelled: true, pending: [] };
    // 1. resolve limits, for the next attempt
    attempt = attempt.next(next.nextAttempt);
  }
}

/** Steps 2 to 5: one attempt, from rig setup to how it ended. Every way it can end is a value. */
async function runAttempt(attempt: Attempt): Promise<AttemptEnd> {
  const { deps, limits } = attempt;

  // 2. prepare
  attempt.status("preparing", { attempt: attempt.attempt });
  const sentinels = await deps.sentinels?.load(attempt);
  if (sentinels !== undefined && !sentinels.ok) {
    const { reason } = sentinels;
    return failedBeforeSession("preparing", reason.message, attempt.elapsedMs(), limits, reason);
  }
  const prepareProblem = await prepare(attempt);
  // A cancel during rig setup stops the rig too: that is the cancel, not a rig failure.
  if (deps.signal.aborted) return cancelledBeforeSession(attempt.elapsedMs(), limits);
  if (prepareProblem !== undefined)
    return failedBeforeSession("preparing", prepareProblem, attempt.elapsedMs(), limits);

  // 3. set up the session
  attempt.status("starting");
  const setup = attempt.sessionSetup();
  if (!setup.ok) return failedBeforeSession("starting", setup.message, attempt.elapsedMs(), limits);

  // 4. run sessions
  attempt.status("initializing");
  const sessions = await runSessions(attempt, setup.value, startMeter(limits));
  // 5. classify the end
  return classifyAttemptEnd({
    sessions,
    limits,
    terminateOn: attempt.terminateOn,
    durationMs: attempt.elapsedMs(),
  });
}

/** Step 2: rig setup through the workspace hook; a problem is the attempt's (permanent) failure. */
async function prepare(attempt: Attempt): Promise<string | undefined> {
  const hook = attempt.deps.hooks?.prepareCodon;
  if (hook === undefined || (attempt.codon.rigSetup?.length ?? 0) === 0) return undefined;
  const prepared = await hook(attempt, attempt.deps.signal);
  return prepared.ok ? undefined : prepared.message;
}

/**
 * Step 6: the workspace's finish hook (checkpoint; outputs and archive on success). Not run for a
 * cancelled attempt: the run is stopping. Returns why it failed, if it did.
 */
async function finishHook(attempt: Attempt, end: AttemptEnd): Promise<string | undefined> {
  const hook = attempt.deps.hooks?.finishCodon;
  if (hook === undefined || end.kind === "cancelled") return undefined;
  const result = await hook({
    entry: attempt.entry,
    codon: attempt.codon,
    runId: attempt.runId,
    attempt: attempt.attempt,
    success: end.kind === "success",
    changedPaths: end.changedPaths,
  });
  return result.ok ? undefined : result.message;
}

/** Step 7's retry: journal the failed attempt and the notice, then wait; false when the run was cancelled. */
async function waitToRetry(
  attempt: Attempt,
  retry: Extract<AfterAttempt, { kind: "retry" }>,
): Promise<boolean> {
  const { sink, clock, signal } = attempt.deps;
  sink.emitAll([retry.completed]);
  sink.emit("info", { message: retry.notice });
  try {
    await sleep(clock, retry.delayMs, signal);
    return true;
  } catch {
    return false;
  }
}
