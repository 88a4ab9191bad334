import type { Clock, TimerHandle } from "../util/clock.ts";

/**
 * A deterministic clock for tests: time moves only when the test says so, so nothing ever sleeps and
 * every run sees the same times. It implements the engine's `Clock` and also serves as the scripted
 * agent's clock.
 *
 * How to drive it:
 * - Start the run without awaiting it (`startHankForTest`), then wait for the timer you are about to
 *   cross, then advance:
 *   ```ts
 *   const sleep = await clock.nextTimer((t) => t.delayMs === 60_000); // the agent's `@sleep 60000`
 *   clock.advance(5_000);                                               // the 5 s idle timeout fires
 *   ```
 *   `advanceToNext(match)` does both steps: it waits for the timer and moves time to its due time.
 * - Let the engine catch up first: the agent runs ahead of the engine, which reads its events a little
 *   later and re-arms the idle timer on each. Wait for the last event before the pause
 *   (`RunningHankTest.waitForEvent`), or the engine may see it after the advance, at the new time.
 * - Identify timers by `delayMs`: the engine arms one per concern (the idle timeout, the time budget,
 *   the retry backoff) and the scripted agent one per `@sleep`, each with a distinct delay.
 * - A timer of 0 ms (or less) is due at once and fires by itself on a later macrotask, as it does on a
 *   real clock, so a retry with `delayMs: 0` needs no advancing. Every other timer fires only inside
 *   `advance`.
 * - At the end of a run `pending()` should be empty: a timer left behind is a timer the engine forgot
 *   to clear.
 */
export interface FakeClock extends Clock {
  /**
   * Moves time forward by `ms` and fires every timer that comes due on the way, in due order (ties in
   * the order they were set). Each callback sees `now()` equal to its own due time; timers set by a
   * callback fire too when they fall inside the window.
   */
  advance(ms: number): void;
  /** The timers set and not yet fired or cleared, in due order. */
  pending(): PendingTimer[];
  /**
   * Resolves with the first pending timer that matches (all timers when no matcher is given): at once
   * when one is already pending, otherwise as soon as one is set.
   */
  nextTimer(match?: TimerMatcher): Promise<PendingTimer>;
  /** `nextTimer(match)`, then `advance` to that timer's due time; resolves with the timer. */
  advanceToNext(match?: TimerMatcher): Promise<PendingTimer>;
}

export interface PendingTimer {
  readonly id: number;
  /** The delay it was set with. */
  readonly delayMs: number;
  /** Clock time at which it fires. */
  readonly dueAt: number;
}

export type TimerMatcher = (timer: PendingTimer) => boolean;

export interface FakeClockOptions {
  /** The initial `now()`, in ms since the epoch. Default: 2025-01-01T00:00:00.000Z. */
  readonly start?: number;
}

export const FAKE_CLOCK_START = Date.UTC(2025, 0, 1);

interface Timer extends PendingTimer {
  readonly callback: () => void;
}

interface Waiter {
  readonly match: TimerMatcher;
  readonly resolve: (timer: PendingTimer) => void;
}

export function createFakeClock(options: FakeClockOptions = {}): FakeClock {
  let now = options.start ?? FAKE_CLOCK_START;
  let nextId = 1;
  const timers = new Map<number, Timer>();
  let waiters: Waiter[] = [];

  const ordered = (): Timer[] => [...timers.values()].sort((a, b) => a.dueAt - b.dueAt || a.id - b.id);
  const view = ({ id, delayMs, dueAt }: Timer): PendingTimer => ({ id, delayMs, dueAt });

  /** Fires, one at a time, the earliest timer due at or before `until`, until none is left. */
  const fireUntil = (until: number): void => {
    for (let due = ordered()[0]; due !== undefined && due.dueAt <= until; due = ordered()[0]) {
      timers.delete(due.id);
      now = Math.max(now, due.dueAt);
      due.callback();
    }
  };

  const notify = (timer: PendingTimer): void => {
    const matched = waiters.filter((w) => w.match(timer));
    if (matched.length === 0) return;
    waiters = waiters.filter((w) => !matched.includes(w));
    for (const waiter of matched) waiter.resolve(timer);
  };

  const clock: FakeClock = {
    now: () => now,
    setTimeout(callback: () => void, ms: number): TimerHandle {
      const delayMs = Math.max(0, ms);
      const timer: Timer = { id: nextId++, delayMs, dueAt: now + delayMs, callback };
      timers.set(timer.id, timer);
      if (delayMs === 0) setImmediate(() => fireUntil(now));
      notify(view(timer));
      return { id: timer.id };
    },
    clearTimeout(handle: TimerHandle): void {
      timers.delete(handle.id);
    },
    advance(ms: number): void {
      if (!(ms >= 0)) throw new RangeError(`advance(ms) needs a non-negative number, got ${ms}`);
      const target = now + ms;
      fireUntil(target);
      now = target;
    },
    pending: () => ordered().map(view),
    nextTimer(match: TimerMatcher = () => true): Promise<PendingTimer> {
      const found = ordered().find((timer) => match(view(timer)));
      if (found !== undefined) return Promise.resolve(view(found));
      return new Promise((resolve) => {
        waiters.push({ match, resolve });
      });
    },
    async advanceToNext(match?: TimerMatcher): Promise<PendingTimer> {
      const timer = await clock.nextTimer(match);
      clock.advance(Math.max(0, timer.dueAt - now));
      return timer;
    },
  };
  return clock;
}
