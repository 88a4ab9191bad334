import type { ResolvedModel } from "../hank/models/index.ts";
import type { Codon, TerminateOn } from "../hank/schema/index.ts";
import type { Harness } from "../harness/harness.ts";
import type { ExecutionPlan, PlannedCodon } from "../plan/index.ts";
import { sleep } from "../util/clock.ts";
import { withCodonEnv } from "../workspace/agent-env.ts";
import type { AttemptContext, AttemptEnd, ResumeTarget } from "./attempt-types.ts";
import { startMeter } from "./budget/index.ts";
import { type LoopLedger, resolveLimits } from "./budget-input.ts";
import { buildPrompts } from "./build-prompts.ts";
import { cancelledBeforeSession, classifyAttemptEnd, failedBeforeSession } from "./classify-attempt-end.ts";
import type { CodonOutcome } from "./codon-outcome.ts";
import { type AfterAttempt, decideAfterAttempt } from "./decide-after-attempt.ts";
import type { EngineDeps, EngineInput } from "./engine-types.ts";
import { idleTimeoutMs } from "./idle-timeout.ts";
import { runSessions, type SessionsInput } from "./run-sessions.ts";
import { sessionModelOf } from "./session-model.ts";
import type { Transitions } from "./transitions.ts";

export type { CodonOutcome } from "./codon-outcome.ts";
export type { CodonResult, CodonUsage } from "./codon-result.ts";

/** One planned codon to run, with everything the run driver knows about it. */
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
  /** `loopTemplateValues(input.processEnv)`, computed once per run: the loop context's prompt variables. */
  readonly loopValues: Readonly<Record<string, string>>;
  readonly deps: EngineDeps;
  readonly transitions: Transitions;
  /** The run's running totals of finished loop executions, so budgets cost the same at every iteration. */
  readonly budgetLedger?: LoopLedger;
}

/**
 * Runs a planned codon to its end. Every attempt takes the same steps, in this order:
 *
 * 1. resolve limits:   the budget the attempt runs under (`resolveLimits`)
 * 2. prepare:          the codon's sentinels load; the `prepareCodon` hook runs the rig setup
 *                                                                            (status `preparing`)
 * 3. build prompts:    prompts, model, harness, env, idle timeout, resume     (status `starting`)
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
export async function executeCodon(exec: CodonExecution): Promise<CodonOutcome> {
  const { deps, entry } = exec;
  let attempt = (deps.sink.codon(entry.runtimeId)?.attempts ?? 0) + 1;
  while (true) {
    // 1. resolve limits
    const limits = resolveLimits(
      exec.input.hank,
      exec.plan,
      entry,
      exec.codon,
      deps.sink,
      exec.input.options,
      exec.budgetLedger,
    );
    // 2-5. prepare, build prompts, run sessions, classify the end
    const end = await runAttempt({ ...exec, attempt, limits });
    // 6. finish hook
    const hookProblem = await finishHook(exec, end, attempt);
    // 7. failure policy: finish, or retry
    const next = decideAfterAttempt({
      runtimeId: entry.runtimeId,
      attempt,
      end,
      hookProblem,
      codon: exec.codon,
      terminateOn: exec.terminateOn,
      headless: exec.input.options.headless,
    });
    if (next.kind === "finish") {
      if (next.completing) exec.transitions.codon(entry.runtimeId, "completing-sentinels");
      return next.outcome;
    }
    if (!(await waitToRetry(exec, next))) return { finish: { kind: "failed" }, cancelled: true, pending: [] };
    attempt = next.nextAttempt;
  }
}

/** Steps 2 to 5: one attempt, from rig setup to how it ended. Every way it can end is a value. */
async function runAttempt(ctx: AttemptContext): Promise<AttemptEnd> {
  const { entry, deps, transitions, limits } = ctx;
  const startMs = deps.clock.now();
  const elapsed = (): number => deps.clock.now() - startMs;

  // 2. prepare
  transitions.codon(entry.runtimeId, "preparing", { attempt: ctx.attempt });
  const sentinels = await deps.sentinels?.load(ctx);
  if (sentinels !== undefined && !sentinels.ok)
    return failedBeforeSession("preparing", sentinels.reason.message, elapsed(), limits, sentinels.reason);
  const prepareProblem = await prepare(ctx);
  // A cancel during rig setup stops the rig too: that is the cancel, not a rig failure.
  if (deps.signal.aborted) return cancelledBeforeSession(elapsed(), limits);
  if (prepareProblem !== undefined)
    return failedBeforeSession("preparing", prepareProblem, elapsed(), limits);

  // 3. build prompts
  transitions.codon(entry.runtimeId, "starting");
  const start = sessionStart(ctx);
  if (!start.ok) return failedBeforeSession("starting", start.message, elapsed(), limits);

  // 4. run sessions
  transitions.codon(entry.runtimeId, "initializing");
  const sessions = await runSessions({ ...start.value, ctx, meter: startMeter(limits), startMs });
  // 5. classify the end
  return classifyAttemptEnd({ sessions, limits, terminateOn: ctx.terminateOn, durationMs: elapsed() });
}

/** Step 2: rig setup through the workspace hook; a problem is the attempt's (permanent) failure. */
async function prepare(ctx: AttemptContext): Promise<string | undefined> {
  const hook = ctx.deps.hooks?.prepareCodon;
  if (hook === undefined || (ctx.codon.rigSetup?.length ?? 0) === 0) return undefined;
  const prepared = await hook(ctx, ctx.deps.signal);
  return prepared.ok ? undefined : prepared.message;
}

type SessionStart = Omit<SessionsInput, "ctx" | "meter" | "startMs">;

/**
 * Step 3: what the agent session starts from. Prompt files are read now, so the attempt uses them as
 * they are. Any problem here is permanent: a retry would meet the same configuration.
 */
function sessionStart(
  ctx: AttemptContext,
): { ok: true; value: SessionStart } | { ok: false; message: string } {
  const { input, codon } = ctx;
  const prompts = buildPrompts(input.hank, codon, {
    hankDir: input.hankDir,
    agentRoot: input.agentRoot,
    ...(input.heldPrompts !== undefined && { held: input.heldPrompts }),
    loop: ctx.loopValues,
  });
  if (!prompts.ok) return prompts;
  const model = input.models.get(codon.model);
  if (model === undefined) return { ok: false, message: `Model '${codon.model}' was not resolved` };
  const harness = pickHarness(ctx, model);
  if (!harness.ok) return harness;
  if (ctx.resume !== undefined && "problem" in ctx.resume) return { ok: false, message: ctx.resume.problem };
  const value: SessionStart = {
    harness: harness.value,
    model,
    prompt: prompts.prompt,
    ...(prompts.systemPrompt !== undefined && { systemPrompt: prompts.systemPrompt }),
    ...(prompts.metadata !== undefined && { promptMetadata: prompts.metadata }),
    env: withCodonEnv(ctx.agentEnv, codon.env),
    idleTimeoutMs: idleTimeoutMs({
      codon: codon.shimIdleTimeout,
      hank: input.hank.overrides?.shimIdleTimeout,
      cli: input.options.agentIdleTimeoutSeconds,
      harnessDefault: harness.value.defaultIdleTimeoutSeconds,
    }),
  };
  return { ok: true, value };
}

function pickHarness(
  ctx: AttemptContext,
  model: ResolvedModel,
): { ok: true; value: Harness } | { ok: false; message: string } {
  try {
    return { ok: true, value: ctx.deps.harnesses.forModel(sessionModelOf(model)) };
  } catch (cause) {
    return { ok: false, message: cause instanceof Error ? cause.message : String(cause) };
  }
}

/**
 * Step 6: the workspace's finish hook (checkpoint; outputs and archive on success). Not run for a
 * cancelled attempt: the run is stopping. Returns why it failed, if it did.
 */
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

/** Step 7's retry: journal the failed attempt and the notice, then wait; false when the run was cancelled. */
async function waitToRetry(
  exec: CodonExecution,
  retry: Extract<AfterAttempt, { kind: "retry" }>,
): Promise<boolean> {
  const { sink, clock, signal } = exec.deps;
  sink.emitAll([retry.completed]);
  sink.emit("info", { message: retry.notice });
  try {
    await sleep(clock, retry.delayMs, signal);
    return true;
  } catch {
    return false;
  }
}
