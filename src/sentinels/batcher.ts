import type { JournaledEvent } from "../events/index.ts";
import type { SentinelExecution } from "../hank/schema/index.ts";
import type { Clock, TimerHandle } from "../util/clock.ts";

export type Strategy = SentinelExecution["strategy"];

/** Matched events a timed strategy holds at most before it sends them as a trigger. */
export const MAX_HELD_EVENTS = 10_000;

/** Hands a batch of matched events on as one trigger. */
export type EmitBatch = (events: readonly JournaledEvent[]) => void;

/**
 * Turns matches into triggers by the sentinel's execution strategy, on the injected clock:
 * - `immediate`: every match is a trigger;
 * - `debounce`: matches gather until `milliseconds` pass without one, then go as one trigger;
 * - `count`: every `threshold` matched events go as one trigger;
 * - `timeWindow`: matched events gather into fixed windows of `milliseconds`, anchored at the first
 *   match; a window that closes with events goes as one trigger (no timer runs while nothing waits).
 * `flush` sends whatever waits (the codon is ending) and disarms the timers; `stop` drops it. A debounce
 * or window that gathers `MAX_HELD_EVENTS` sends them at once, so a long busy codon holds bounded memory.
 */
export interface Batcher {
  add(events: readonly JournaledEvent[]): void;
  flush(): void;
  stop(): void;
  /** Matched events waiting for their trigger. */
  pending(): number;
}

export function createBatcher(execution: SentinelExecution, clock: Clock, emit: EmitBatch): Batcher {
  switch (execution.strategy) {
    case "immediate":
      return { add: emit, flush: () => undefined, stop: () => undefined, pending: () => 0 };
    case "count":
      return countBatcher(execution.threshold, emit);
    case "debounce":
      return timedBatcher(clock, emit, (now) => now + execution.milliseconds, true);
    case "timeWindow":
      return windowBatcher(execution.milliseconds, clock, emit);
  }
}

function countBatcher(threshold: number, emit: EmitBatch): Batcher {
  let waiting: JournaledEvent[] = [];
  return {
    add(events) {
      waiting.push(...events);
      while (waiting.length >= threshold) emit(waiting.splice(0, threshold));
    },
    flush() {
      if (waiting.length > 0) emit(waiting.splice(0));
    },
    stop() {
      waiting = [];
    },
    pending: () => waiting.length,
  };
}

/**
 * Events gather until a timer fires. `dueAt(now)` says when the timer for a batch fires; `rearm` moves
 * it on every new match (debounce) instead of keeping the first one (a window).
 */
function timedBatcher(
  clock: Clock,
  emit: EmitBatch,
  dueAt: (now: number) => number,
  rearm: boolean,
): Batcher {
  let waiting: JournaledEvent[] = [];
  let timer: TimerHandle | undefined;
  const disarm = (): void => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  };
  const fire = (): void => {
    timer = undefined;
    if (waiting.length > 0) emit(waiting.splice(0));
  };
  return {
    add(events) {
      waiting.push(...events);
      if (waiting.length >= MAX_HELD_EVENTS) {
        disarm();
        fire();
        return;
      }
      if (timer !== undefined && !rearm) return;
      disarm();
      const now = clock.now();
      timer = clock.setTimeout(fire, dueAt(now) - now);
    },
    flush() {
      disarm();
      fire();
    },
    stop() {
      disarm();
      waiting = [];
    },
    pending: () => waiting.length,
  };
}

function windowBatcher(milliseconds: number, clock: Clock, emit: EmitBatch): Batcher {
  let anchor: number | undefined;
  return timedBatcher(
    clock,
    emit,
    (now) => {
      anchor ??= now;
      // The end of the window `now` falls in: windows are [anchor + k·ms, anchor + (k+1)·ms).
      return anchor + (Math.floor((now - anchor) / milliseconds) + 1) * milliseconds;
    },
    false,
  );
}
