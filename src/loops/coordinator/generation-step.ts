import { effectiveBudgets } from "../model/budgets.ts";
import { generationKey } from "../model/idempotency.ts";
import { messagesForNextGeneration, renderInbox } from "../model/inbox.ts";
import type { GenerationRecord, LoopRunRecord } from "../store/store-records.ts";
import { ActivityClock } from "./activity-clock.ts";
import { endIfTampered, endRunWith } from "./contract-guard.ts";
import { type ChildGroups, type DriverDeps, endRun } from "./driver-context.ts";
import { runFanOutGeneration, storedItems } from "./fan-out-generation.ts";
import { loopEnv, scriptEnv } from "./loop-env.ts";
import { workspaceOf } from "./run-body.ts";
import {
  continueGates,
  type GenerationDeps,
  type GenerationResult,
  runGeneration,
} from "./run-generation.ts";
import { type HookRan, runHook } from "./run-hook.ts";
import { bodyView, sandboxWrap } from "./sandbox-wrap.ts";
import { tickOf } from "./watch-step.ts";

/** What a generation step needs from the driver holding the lease. */
export interface StepContext {
  readonly deps: DriverDeps;
  readonly token: number;
  readonly children: ChildGroups;
  /** Running time already counted, plus the time since the driver's last mark. */
  readonly runningMs: () => number;
}

/**
 * Starts generation `number`: the `generation_pre` hook first (a generation is numbered only when the
 * hook allows it), then the record (with the inbox it is handed, marked read), then the run of it.
 */
export async function startGeneration(
  context: StepContext,
  run: LoopRunRecord,
  number: number,
): Promise<void> {
  const { deps, token } = context;
  if (await endIfTampered(deps, token, run)) return;
  const loop = loopEnv({ run, generation: number, inbox: "" });
  const hook = await runHook({
    hook: "generation_pre",
    generation: number,
    clock: deps.clock,
    recorded: hookRecorder(context, run),
    argv: run.contract.hooks.generationPre,
    cwd: run.dir,
    env: scriptEnv(deps.env, loop),
    input: { runId: run.id, loopId: run.loopId, generation: number },
    signal: new AbortController().signal,
    wrap: sandboxWrap(run, deps.privateDirs),
    onStarted: (pgid) => context.children.add(pgid),
  });
  if (hook.kind !== "allow") {
    const outcome =
      hook.kind === "deny"
        ? ({ state: "failed", cause: "hook_denied" } as const)
        : ({ state: "failed", cause: "hook_error" } as const);
    await endRun(deps, token, run, outcome);
    return;
  }
  const unread = messagesForNextGeneration(await deps.store.messages(run.id));
  const at = new Date(deps.clock.now()).toISOString();
  const record: GenerationRecord = {
    runId: run.id,
    number,
    key: generationKey(run.key, number),
    state: "running",
    facts: { number, body: { kind: "interrupted" }, gates: [], hash: null },
    layers: [],
    bodyRunId: null,
    workspaceTree: null,
    tokens: null,
    costUsd: null,
    readMessages: unread.map((m) => m.id),
    startedAt: at,
    endedAt: null,
  };
  await deps.store.putGeneration(token, record);
  await deps.store.markRead(run.id, token, record.readMessages, number);
  await deps.store.appendEvent(
    run.id,
    token,
    "generation.started",
    { number, key: record.key, inbox: record.readMessages },
    at,
  );
  deps.report?.(
    `generation ${number} started${unread.length > 0 ? ` (inbox: ${unread.map((m) => `#${m.id}`).join(", ")})` : ""}`,
  );
  await resumeGeneration(context, run, record);
}

/** Runs (or, after a crash, resumes) a generation whose record says `running`, and records its end. */
export async function resumeGeneration(
  context: StepContext,
  run: LoopRunRecord,
  record: GenerationRecord,
): Promise<void> {
  // Checked again here: a generation resumed after a crash starts its body without the hook.
  if (await endIfTampered(context.deps, context.token, run)) return;
  const messages = await context.deps.store.messages(run.id);
  const inbox = renderInbox(messages.filter((m) => record.readMessages.includes(m.id)));
  const items = await storedItems(context.deps, run);
  const result = await withStopWatch(
    context,
    run,
    (deps) =>
      items === undefined
        ? runGeneration(run.contract, record, run.dir, deps)
        : runFanOutGeneration(run, record, deps, items),
    inbox,
    record.number,
  );
  await recordGeneration(context, run, result);
}

/** Runs the gates left after an approved human gate, and records the generation again. */
export async function finishGates(
  context: StepContext,
  run: LoopRunRecord,
  record: GenerationRecord,
  approvals: ReadonlySet<string>,
): Promise<void> {
  const result = await withStopWatch(
    context,
    run,
    (deps) => continueGates(run.contract, record, run.dir, deps, approvals, record.workspaceTree),
    "",
    record.number,
  );
  await recordGeneration(context, run, result);
}

async function recordGeneration(
  context: StepContext,
  run: LoopRunRecord,
  result: GenerationResult,
): Promise<void> {
  const { deps, token } = context;
  const { record } = result;
  const at = new Date(deps.clock.now()).toISOString();
  const existing = await deps.store.messages(run.id);
  for (const gate of record.facts.gates) {
    const author = `gate:${gate.gateId}#g${record.number}`;
    for (const id of gate.blockerIds) {
      if (existing.some((m) => m.author === author && m.text === id)) continue;
      await deps.store.addMessage({ runId: run.id, kind: "gate_blocker", author, text: id, createdAt: at });
    }
  }
  await deps.store.putGeneration(token, record);
  const verdicts = record.facts.gates.map((g) => `${g.gateId}: ${g.verdict}`).join(", ");
  await deps.store.appendEvent(
    run.id,
    token,
    "generation.ended",
    {
      number: record.number,
      state: record.state,
      gates: record.facts.gates,
      hash: record.facts.hash,
      tokens: record.tokens,
    },
    at,
  );
  // Every attempt that did not end cleanly stays visible, an interrupted one a restart replaced included.
  const rough = record.layers
    .filter((l) => l.codon !== "completed")
    .map((l) => `${l.codonId}${l.attempt === undefined ? "" : ` attempt ${l.attempt}`} ${l.codon}`);
  deps.report?.(
    `generation ${record.number} ${record.state}${verdicts === "" ? "" : ` — ${verdicts}`}${rough.length === 0 ? "" : ` (${rough.join(", ")})`}`,
  );
  context.children.clear();
  if (result.runEnd !== undefined) {
    const fresh = await deps.store.getRun(run.id);
    if (fresh !== undefined) await endRunWith(deps, token, fresh, result.runEnd);
  }
}

/**
 * Runs `work` with the generation's abort signal, polling the store for a stop command, the wall-clock
 * budget and the inactivity clock every `pollMs`: a stop ends the body at once (`aborted`); the
 * inactivity clock ends it too and marks the generation `inactive` (the run then ends stalled).
 */
async function withStopWatch(
  context: StepContext,
  run: LoopRunRecord,
  work: (deps: GenerationDeps) => Promise<GenerationResult>,
  inbox: string,
  number: number,
): Promise<GenerationResult> {
  const { deps } = context;
  const controller = new AbortController();
  const budgets = effectiveBudgets(run.contract.limits, run.amendments);
  const activity = new ActivityClock(context.runningMs, run.contract.limits.inactivity_sec);
  let inactive = false;
  const stopOnSignal = () => controller.abort("stopped");
  deps.signal?.addEventListener("abort", stopOnSignal, { once: true });
  const timer = setInterval(() => {
    void deps.store
      .pendingCommands(run.id)
      .then((commands) => {
        if (commands.some((c) => c.type === "stop")) controller.abort("stopped by the operator");
      })
      .catch(() => undefined);
    if (budgets.wallClockSec > 0 && context.runningMs() > budgets.wallClockSec * 1000)
      controller.abort("wall-clock budget");
    if (!controller.signal.aborted && activity.stalled()) {
      inactive = true;
      controller.abort("inactivity: no node reached a terminal state in time");
    }
  }, deps.pollMs ?? 500);
  const tick = run.contract.kind === "watch" ? await tickOf(deps, run.id) : undefined;
  const bodyViewOf = bodyView(run, deps.privateDirs);
  const previous = number > 1 ? (await deps.store.generations(run.id, number - 1))[0] : undefined;
  try {
    const loop = loopEnv({
      run,
      generation: number,
      inbox,
      ...(previous?.number === number - 1 && { previousGates: previous.facts.gates }),
      ...(tick !== undefined && { items: JSON.stringify(tick.items) }),
    });
    const result = await work({
      clock: deps.clock,
      newId: deps.newId,
      processEnv: deps.env,
      loopVars: loop,
      scriptEnv: scriptEnv(deps.env, { ...loop, HANKWEAVE_LOOP_WORKSPACE: workspaceOf(run.dir) }),
      signal: controller.signal,
      overBudget: (tokens) => budgets.tokens > 0 && run.meters.tokens + tokens > budgets.tokens,
      onChild: (pgid) => context.children.add(pgid),
      activity,
      wrap: sandboxWrap(run, deps.privateDirs),
      tokenAllowance: budgets.tokens > 0 ? budgets.tokens - run.meters.tokens : null,
      ...(bodyViewOf !== undefined && { bodyView: bodyViewOf }),
      recordHook: hookRecorder(context, run),
    });
    if (!inactive) return result;
    const { record } = result;
    return { record: { ...record, facts: { ...record.facts, inactive: true } } };
  } finally {
    clearInterval(timer);
    deps.signal?.removeEventListener("abort", stopOnSignal);
  }
}

/** Hooks are logged under the lease that runs them (`hook.ran`), their times for traces and pages. */
function hookRecorder(context: StepContext, run: LoopRunRecord): (ran: HookRan) => Promise<void> {
  return async (ran) => {
    await context.deps.store.appendEvent(run.id, context.token, "hook.ran", ran.data, ran.at);
  };
}
