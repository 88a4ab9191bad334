import { performance } from "node:perf_hooks";
import type { EngineHooks } from "../../src/engine/index.ts";
import type { SplitTimer } from "./split-timer.ts";

/**
 * Wraps the engine hooks so their time is accounted: every workspace hook is checkpoint work (rig
 * setup with no operations costs nothing but its checkpoint), `persist` is the state snapshot.
 */
export interface HookObserver {
  /** The startRun hook took `ms`. */
  onStartRun(ms: number): void;
  /** After each `persist`, outside the timed section (e.g. to see whether state.json was written). */
  afterPersist(): void;
}

export function timedHooks(hooks: EngineHooks, timer: SplitTimer, observer: HookObserver): EngineHooks {
  const { startRun, prepareCodon, finishCodon, finishLoop, persist } = hooks;
  return {
    ...(startRun && {
      startRun: async (runId) => {
        const start = performance.now();
        const result = await timer.async("checkpoint", () => startRun.call(hooks, runId));
        observer.onStartRun(performance.now() - start);
        return result;
      },
    }),
    ...(prepareCodon && {
      prepareCodon: (context, signal) =>
        timer.async("checkpoint", () => prepareCodon.call(hooks, context, signal)),
    }),
    ...(finishCodon && {
      finishCodon: (context) => timer.async("checkpoint", () => finishCodon.call(hooks, context)),
    }),
    ...(finishLoop && {
      finishLoop: (loop) => timer.async("checkpoint", () => finishLoop.call(hooks, loop)),
    }),
    ...(persist && {
      persist: (plan) => {
        timer.sync("state", () => persist.call(hooks, plan));
        observer.afterPersist();
      },
    }),
  };
}
