import { performance } from "node:perf_hooks";

/** Where the time of a codon boundary goes, besides the engine itself. */
export type Bucket = "journal" | "state" | "checkpoint";

export interface SplitTimer {
  /** Times a synchronous call into `bucket`. */
  sync<T>(bucket: Bucket, fn: () => T): T;
  /** Times an asynchronous call into `bucket`; the engine awaits it, so nothing else runs meanwhile. */
  async<T>(bucket: Bucket, fn: () => Promise<T>): Promise<T>;
  /** Milliseconds per bucket, exclusive: time of a nested call counts only in the inner bucket. */
  totals(): Readonly<Record<Bucket, number>>;
}

/**
 * Exclusive time accounting over a stack: a journal append made by a checkpoint hook (rig events) is
 * journal time, not checkpoint time. Valid because the engine runs one step at a time.
 */
export function createSplitTimer(): SplitTimer {
  const totals: Record<Bucket, number> = { journal: 0, state: 0, checkpoint: 0 };
  const stack: { nested: number }[] = [];
  const enter = (): { frame: { nested: number }; start: number } => {
    const frame = { nested: 0 };
    stack.push(frame);
    return { frame, start: performance.now() };
  };
  const leave = (bucket: Bucket, entered: { frame: { nested: number }; start: number }): void => {
    const elapsed = performance.now() - entered.start;
    stack.pop();
    totals[bucket] += elapsed - entered.frame.nested;
    const parent = stack[stack.length - 1];
    if (parent !== undefined) parent.nested += elapsed;
  };
  return {
    sync(bucket, fn) {
      const entered = enter();
      try {
        return fn();
      } finally {
        leave(bucket, entered);
      }
    },
    async async(bucket, fn) {
      const entered = enter();
      try {
        return await fn();
      } finally {
        leave(bucket, entered);
      }
    },
    totals: () => ({ ...totals }),
  };
}
