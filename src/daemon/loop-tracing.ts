import { isLoopEvent } from "../events/loop-events.ts";
import { type LoopStore, TERMINAL_STATES } from "../loops/index.ts";
import { openTracer } from "../observability/index.ts";
import { exportLoopRun, type HookRanEvent } from "./loop-run-spans.ts";

const TERMINAL_ENDS: ReadonlySet<string> = new Set(TERMINAL_STATES);

/** The daemon's Loop traces: `poll` after each pass, `close` at shutdown. */
export interface LoopTracing {
  poll(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Traces of Loop runs: when a run reaches a terminal state, its tree is exported in one pass from the
 * store's records and the hooks its event log recorded (`exportLoopRun`), with their own times. A run's
 * tree appears once it has ended (the records are the truth).
 * The bodies' own runs are traced as any run is, in their execution's trace (docs/observability.md).
 * Undefined when tracing is off; OpenTelemetry is imported only when it is on.
 */
export async function startLoopTracing(
  store: LoopStore,
  env: Readonly<Record<string, string | undefined>>,
  version: string,
): Promise<LoopTracing | undefined> {
  const session = await openTracer({ env, version, scope: "hankweave.loops" });
  if (session === undefined) return undefined;
  let after = await lastSeq(store);
  return {
    poll: async () => {
      for (;;) {
        const events = await store.events(after, undefined, 500);
        for (const event of events) {
          after = event.seq;
          if (event.type !== "run.state" || !TERMINAL_ENDS.has(event.data.to)) continue;
          const run = await store.getRun(event.runId);
          if (run === undefined) continue;
          const [generations, hooks] = await Promise.all([store.generations(run.id), hooksOf(store, run.id)]);
          exportLoopRun(session, { run, generations, hooks, endedAt: event.at });
        }
        if (events.length < 500) return;
      }
    },
    close: () => session.close(),
  };
}

/** Runs that ended before the daemon started were traced by the daemon that saw them end. */
async function lastSeq(store: LoopStore): Promise<number> {
  let after = 0;
  for (;;) {
    const events = await store.events(after, undefined, 1000);
    const last = events.at(-1);
    if (last === undefined) return after;
    after = last.seq;
  }
}

/** The `hook.ran` entries of one run, oldest first. */
async function hooksOf(store: LoopStore, runId: string): Promise<HookRanEvent[]> {
  const hooks: HookRanEvent[] = [];
  let after = 0;
  for (;;) {
    const events = await store.events(after, runId, 500);
    hooks.push(...events.filter(isLoopEvent("hook.ran")));
    const last = events.at(-1);
    if (last === undefined || events.length < 500) return hooks;
    after = last.seq;
  }
}
