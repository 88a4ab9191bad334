import type { TimerHandle } from "../../util/clock.ts";
import type { ProcessClock } from "../process/process-clock.ts";

/** At most one `rig.output` event per stream per this many milliseconds (reference 1.5). */
export const RIG_OUTPUT_INTERVAL_MS = 1_000;

export interface OutputThrottle {
  push(line: string): void;
  /** Emits whatever is waiting, now, and cancels the pending timer. Call when the command ends. */
  flush(): void;
}

/**
 * Limits one output stream to one emission per interval without losing lines. A line that arrives
 * when nothing was emitted for a full interval goes out at once; lines arriving inside the interval
 * wait and go out together, joined by "\n", when the interval has passed. `flush` (at the end of
 * the command) sends the waiting lines immediately, so the last emission of a command may follow
 * the one before it sooner than the interval: a command's output is never held back past its end.
 */
export function createOutputThrottle(
  clock: ProcessClock,
  emit: (text: string) => void,
  intervalMs: number = RIG_OUTPUT_INTERVAL_MS,
): OutputThrottle {
  let lastEmitAt: number | null = null;
  let waiting: string[] = [];
  let timer: TimerHandle | null = null;
  const send = (text: string): void => {
    lastEmitAt = clock.now();
    emit(text);
  };
  const release = (): void => {
    timer = null;
    if (waiting.length === 0) return;
    const text = waiting.join("\n");
    waiting = [];
    send(text);
  };
  return {
    push(line) {
      const now = clock.now();
      if (waiting.length === 0 && (lastEmitAt === null || now - lastEmitAt >= intervalMs)) {
        send(line);
        return;
      }
      waiting.push(line);
      if (timer === null)
        timer = clock.setTimeout(release, Math.max(0, (lastEmitAt ?? now) + intervalMs - now));
    },
    flush() {
      if (timer !== null) clock.clearTimeout(timer);
      release();
    },
  };
}
