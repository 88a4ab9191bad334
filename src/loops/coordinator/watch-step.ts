import { loadDefinition } from "../definition/load-definition.ts";
import { parseSourceOutput, pollDueAt, sourceSilent, type WatchItem } from "../model/watch.ts";
import type { LoopRunRecord } from "../store/store-records.ts";
import { admitRun } from "./admit-run.ts";
import { checkPins, endRunWith, tamperEnd } from "./contract-guard.ts";
import { type DriverDeps, moveRun } from "./driver-context.ts";
import type { StepContext } from "./generation-step.ts";
import { loopEnv, scriptEnv } from "./loop-env.ts";
import { runArgv } from "./run-argv.ts";
import { loopsHomeOf, sandboxWrap } from "./sandbox-wrap.ts";

/** The event a tick writes with its transition: the items the run works on and the source's cursor. */
export const TICK_EVENT = "watch.tick";
const POLL_FAILED_EVENT = "watch.poll_failed";
const SOURCE_TIMEOUT_MS = 600_000;

export type WatchStep = { readonly kind: "ticked" } | { readonly kind: "wait"; readonly wakeAt: number };

/**
 * One boundary of a `watching` run: nothing until its poll is due; then the source runs (with the last
 * cursor in `HANKWEAVE_WATCH_CURSOR`). A successful poll ticks the run into `running` with its items,
 * storing the new cursor in the same transaction; a failed one is recorded, and once no poll has
 * succeeded for the silence window the run ends `stalled: source_silent`.
 */
export async function watchStep(context: StepContext, run: LoopRunRecord): Promise<WatchStep> {
  const { deps, token } = context;
  const watch = run.contract.watch;
  if (watch === null) throw new Error(`Loop run ${run.id} is watching but its contract has no [watch]`);
  const events = await deps.store.events(0, run.id);
  const failed = events.findLast((e) => e.type === POLL_FAILED_EVENT);
  const dueAt = pollDueAt({
    armedAtMs: Date.parse(run.createdAt),
    everySec: watch.everySec,
    successor: run.trigger === "watch",
    lastFailedPollMs: failed === undefined ? null : Date.parse(failed.at),
  });
  const now = deps.clock.now();
  if (now < dueAt) return { kind: "wait", wakeAt: dueAt };
  const tamper = checkPins(run.contract);
  if (tamper !== undefined) {
    await endRunWith(deps, token, run, tamperEnd(tamper));
    return { kind: "ticked" };
  }
  const previous = await deps.store.getCursor(run.loopId);
  const result = await runArgv({
    argv: sandboxWrap(run, deps.privateDirs)(watch.source, run.dir, false),
    cwd: run.dir,
    env: {
      ...scriptEnv(deps.env, loopEnv({ run, generation: 0, inbox: "" })),
      HANKWEAVE_WATCH_CURSOR: previous?.cursor ?? "",
    },
    timeoutMs: Math.min(SOURCE_TIMEOUT_MS, watch.everySec * 1000),
    onStarted: (pgid) => context.children.add(pgid),
  });
  context.children.clear();
  const at = new Date(deps.clock.now()).toISOString();
  const poll =
    result.kind === "exited" && result.code === 0
      ? parseSourceOutput(result.stdout)
      : { ok: false as const, message: failureOf(result) };
  if (!poll.ok) {
    const lastSuccessMs = Date.parse(previous?.lastSuccessAt ?? run.createdAt);
    const silenceSec = run.contract.limits.silence_window_sec;
    if (sourceSilent({ nowMs: deps.clock.now(), lastSuccessMs, silenceSec })) {
      await moveRun(deps, token, run, "stalled", "source_silent");
      return { kind: "ticked" };
    }
    await deps.store.appendEvent(run.id, token, POLL_FAILED_EVENT, { message: poll.message }, at);
    deps.report?.(`watch: the source failed (${poll.message}); next poll in ${watch.everySec} s`);
    return { kind: "wait", wakeAt: deps.clock.now() + watch.everySec * 1000 };
  }
  await moveRun(deps, token, run, "running", "tick", {
    events: [{ type: TICK_EVENT, data: { items: poll.items, cursor: poll.cursor } }],
    cursor: { loopId: run.loopId, cursor: poll.cursor, lastSuccessAt: at },
  });
  deps.report?.(`watch: tick with ${poll.items.length} item(s)`);
  return { kind: "ticked" };
}

function failureOf(result: Awaited<ReturnType<typeof runArgv>>): string {
  if (result.kind === "not-started") return result.message;
  if (result.kind === "killed")
    return result.timedOut ? "the source timed out" : `killed by ${result.signal}`;
  return `exit ${result.code}: ${(result.stderr.trim().split("\n").at(-1) ?? "").slice(0, 200)}`;
}

/** The tick of a watch run that ticked: its time and items (undefined before the tick). */
export async function tickOf(
  deps: DriverDeps,
  runId: string,
): Promise<{ readonly at: string; readonly items: readonly WatchItem[] } | undefined> {
  const tick = (await deps.store.events(0, runId)).find((e) => e.type === TICK_EVENT);
  if (tick === undefined) return undefined;
  return { at: tick.at, items: tick.data.items };
}

/**
 * Arms the next tick's run: a new run of the loop, admitted from its registered definition as it is
 * now (like a scheduled fire), waiting in `watching`. Keyed by this tick's time, so arming twice (a
 * driver replaced mid-way) admits one run. A definition that no longer loads disarms the watch, said
 * in the run's events.
 */
export async function armSuccessor(context: StepContext, run: LoopRunRecord, tickAt: string): Promise<void> {
  const { deps, token } = context;
  const registered = (await deps.store.registeredLoops()).find((loop) => loop.loopId === run.loopId);
  const loaded = registered === undefined ? undefined : loadDefinition(registered.file);
  if (loaded === undefined || !loaded.ok || loaded.definition.kind !== "watch") {
    const why =
      loaded === undefined ? "the loop is not registered" : "its definition no longer loads as a watch";
    await deps.store.appendEvent(run.id, token, "watch.disarmed", { why }, tickAt);
    deps.report?.(`watch: no next tick (${why})`);
    return;
  }
  const outcome = await admitRun({
    store: deps.store,
    definition: loaded.definition,
    home: loopsHomeOf(run),
    clock: deps.clock,
    newId: () => `${run.loopId}-${deps.newId()}`,
    trigger: "watch",
    occurrence: tickAt,
    concurrency: "allow",
    ...(deps.limitConfig !== undefined && { limitConfig: deps.limitConfig }),
    ...(run.contract.admittedAnyway !== null && { admitAnyway: run.contract.admittedAnyway }),
  });
  if (outcome.kind === "admitted") deps.report?.(`watch: next tick's run ${outcome.run.id} is watching`);
}
