import type { HarnessClock } from "../harness-clock.ts";

/** Waits `ms` on the injected clock; an abort ends the wait early and clears the timer. Never rejects. */
export function sleepOnClock(
  clock: HarnessClock,
  ms: number,
  signal: AbortSignal,
): Promise<"slept" | "aborted"> {
  return new Promise((settle) => {
    if (signal.aborted) {
      settle("aborted");
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      settle("aborted");
    };
    const handle = clock.setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      settle("slept");
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
