import type { HarnessClock } from "./harness-clock.ts";

/** Shared by the harness tests: a clock driven by hand. */

export interface HandClock extends HarnessClock {
  /** Moves time forward and fires the timers that came due, in due order. */
  advance(ms: number): void;
  pendingTimers(): number;
}

export function createHandClock(): HandClock {
  let now = 0;
  let nextHandle = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const handle = nextHandle++;
      timers.set(handle, { at: now + ms, fn });
      return { id: handle };
    },
    clearTimeout(handle) {
      timers.delete(handle.id);
    },
    advance(ms) {
      now += ms;
      const due = [...timers.entries()].filter(([, t]) => t.at <= now).sort((a, b) => a[1].at - b[1].at);
      for (const [handle, timer] of due) {
        timers.delete(handle);
        timer.fn();
      }
    },
    pendingTimers: () => timers.size,
  };
}
