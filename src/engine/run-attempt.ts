import type { FailureReason } from "../harness/failure-reason.ts";
import type { Harness } from "../harness/harness.ts";
import type { ActiveCodonStatus } from "../journal/index.ts";
import type { HarnessKind, ResolvedModel } from "../spec/models/index.ts";
import { withCodonEnv } from "../workspace/agent-env.ts";
import { type AttemptContext, type AttemptEnd, NO_LAYERS } from "./attempt-types.ts";
import { startMeter } from "./budget/index.ts";
import { buildPrompts } from "./build-prompts.ts";
import { mapSessionResult } from "./map-session-result.ts";
import { runSessions } from "./run-sessions.ts";
import { sessionModelOf } from "./session-model.ts";

/** Idle timeouts by harness when neither the codon, the hank nor the command line sets one (1.16). */
const DEFAULT_IDLE_TIMEOUT_SECONDS: Record<HarnessKind, number> = {
  claude: 180,
  pi: 120,
  scripted: 180,
  command: 180,
};

/**
 * One attempt of one codon: rig setup, prompts, the agent session and its exhaustWithPrompt
 * extensions. Every way it can end is a value; the caller applies the failure policy.
 */
export async function runAttempt(ctx: AttemptContext): Promise<AttemptEnd> {
  const { entry, deps, transitions } = ctx;
  const startMs = deps.clock.now();
  const early = (failedDuring: ActiveCodonStatus, reason: FailureReason): AttemptEnd =>
    earlyFailure(ctx, startMs, failedDuring, reason);

  transitions.codon(entry.runtimeId, "preparing", { attempt: ctx.attempt });
  const hooks = deps.hooks;
  if (hooks?.prepareCodon && (ctx.codon.rigSetup?.length ?? 0) > 0) {
    const prepared = await hooks.prepareCodon(ctx, deps.signal);
    if (!prepared.ok) return early("preparing", permanent(prepared.message));
  }
  if (deps.signal.aborted) return cancelledBeforeStart(ctx, startMs);

  transitions.codon(entry.runtimeId, "starting");
  const prompts = buildPrompts(ctx.input.hank, ctx.codon, ctx.input.hankDir, ctx.input.agentRoot);
  if (!prompts.ok) return early("starting", permanent(prompts.message));
  const model = ctx.input.models.get(ctx.codon.model);
  if (model === undefined) return early("starting", permanent(`Model '${ctx.codon.model}' was not resolved`));
  const harness = pickHarness(ctx, model);
  if (!harness.ok) return early("starting", permanent(harness.message));
  if (ctx.resume !== undefined && "problem" in ctx.resume)
    return early("starting", permanent(ctx.resume.problem));

  transitions.codon(entry.runtimeId, "initializing");
  const sessions = await runSessions({
    ctx,
    harness: harness.value,
    model,
    prompt: prompts.prompt,
    ...(prompts.systemPrompt !== undefined && { systemPrompt: prompts.systemPrompt }),
    ...(prompts.metadata !== undefined && { promptMetadata: prompts.metadata }),
    env: withCodonEnv(ctx.agentEnv, ctx.codon.env),
    idleTimeoutMs: idleTimeoutSeconds(ctx, model) * 1000,
    meter: startMeter(ctx.limits),
    startMs,
  });
  return mapSessionResult(ctx, sessions, startMs);
}

function permanent(message: string): FailureReason {
  return { type: "unknown", retriable: false, message };
}

function earlyFailure(
  ctx: AttemptContext,
  startMs: number,
  failedDuring: ActiveCodonStatus,
  reason: FailureReason,
): AttemptEnd {
  return {
    kind: "failure",
    reason,
    failedDuring,
    costUsd: 0,
    durationMs: ctx.deps.clock.now() - startMs,
    endReasons: { ...NO_LAYERS, codon: "error" },
    exitStatus: { type: "error", code: 1 },
    changedPaths: null,
    limits: ctx.limits,
  };
}

function cancelledBeforeStart(ctx: AttemptContext, startMs: number): AttemptEnd {
  return {
    kind: "cancelled",
    failedDuring: "preparing",
    costUsd: 0,
    durationMs: ctx.deps.clock.now() - startMs,
    endReasons: { ...NO_LAYERS, codon: "aborted" },
    exitStatus: { type: "killed", signal: "SIGTERM" },
    changedPaths: null,
    limits: ctx.limits,
  };
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

function idleTimeoutSeconds(ctx: AttemptContext, model: ResolvedModel): number {
  return (
    ctx.codon.shimIdleTimeout ??
    ctx.input.hank.overrides?.shimIdleTimeout ??
    ctx.input.options.idleTimeoutSeconds ??
    DEFAULT_IDLE_TIMEOUT_SECONDS[model.harness]
  );
}
