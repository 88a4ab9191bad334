import type { HarnessEvent, HarnessSession, SessionOutcome } from "./harness.ts";

/**
 * Builds a HarnessSession from a producer that pushes events and returns the outcome. Events are
 * buffered until consumed, so a producer never waits on its consumer; the outcome settles after the
 * producer returns. A producer that throws is a bug in the adapter and rejects the outcome.
 */
export function createSession(
  produce: (emit: (event: HarnessEvent) => void) => Promise<SessionOutcome>,
): HarnessSession {
  const buffer: HarnessEvent[] = [];
  let finished = false;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const emit = (event: HarnessEvent): void => {
    buffer.push(event);
    notify();
  };
  const outcome = (async () => {
    try {
      return await produce(emit);
    } finally {
      finished = true;
      notify();
    }
  })();
  // The consumer may only read the outcome after iterating; keep an early rejection from being unhandled.
  outcome.catch(() => undefined);
  return {
    outcome,
    async *[Symbol.asyncIterator]() {
      while (true) {
        const event = buffer.shift();
        if (event) {
          yield event;
          continue;
        }
        if (finished) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}
