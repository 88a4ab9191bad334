/**
 * Time as a dependency. The engine never reads the wall clock or sets timers directly, so tests drive
 * time with a fake clock and never sleep.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export interface TimerHandle {
  readonly id: number;
}

/** Resolves after `ms` on the given clock, or rejects with the signal's reason when it aborts first. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * The real clock. Callers clear their watchdogs; a pending backoff keeps the process alive on purpose.
 * With `unref`, pending timers never keep the process alive (a heartbeat after a finished run).
 */
export function systemClock(options: { readonly unref?: boolean } = {}): Clock {
  const timers = new Map<number, NodeJS.Timeout>();
  let next = 1;
  return {
    now: () => Date.now(),
    setTimeout(callback, ms) {
      const id = next++;
      const timer = setTimeout(() => {
        timers.delete(id);
        callback();
      }, ms);
      if (options.unref === true) timer.unref();
      timers.set(id, timer);
      return { id };
    },
    clearTimeout(handle) {
      const timer = timers.get(handle.id);
      if (timer) clearTimeout(timer);
      timers.delete(handle.id);
    },
  };
}
