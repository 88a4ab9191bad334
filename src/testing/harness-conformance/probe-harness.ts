import type { Harness, HarnessEvent, HarnessSession } from "../../harness/harness.ts";
import type { SessionDirector } from "./session-director.ts";

/** When one session started, reported its id, and ended, in milliseconds on the probe's clock. */
export interface SessionTiming {
  readonly startMs: number;
  /**
   * When the consumer (the engine) received `session.started`; undefined when the session never
   * reported one. A session that runs ahead of its consumer may settle before this.
   */
  readonly sessionStartedMs: number | undefined;
  /** When the session's outcome settled; undefined while it runs. */
  readonly endMs: number | undefined;
}

type MutableTiming = { -readonly [K in keyof SessionTiming]: SessionTiming[K] };

export interface ProbedHarness {
  readonly harness: Harness;
  /** One entry per started session, in start order. */
  readonly timings: readonly SessionTiming[];
}

/**
 * Wraps the harness under test without changing what it does: each `start()` first moves the director
 * to the next planned session, and the session's start-up time (start → session.started) and length
 * (start → outcome) are recorded, so a run can tell the harness's time from the engine's.
 */
export function probeHarness(inner: Harness, director: SessionDirector, now: () => number): ProbedHarness {
  const timings: MutableTiming[] = [];
  const harness: Harness = {
    name: inner.name,
    capabilities: inner.capabilities,
    start(request) {
      director.nextSession();
      const timing: MutableTiming = { startMs: now(), sessionStartedMs: undefined, endMs: undefined };
      timings.push(timing);
      const session = inner.start(request);
      const outcome = session.outcome.then((result) => {
        timing.endMs = now();
        return result;
      });
      outcome.catch(() => undefined);
      const observed: HarnessSession = {
        outcome,
        async *[Symbol.asyncIterator](): AsyncGenerator<HarnessEvent> {
          for await (const event of session) {
            if (event.type === "session.started") timing.sessionStartedMs ??= now();
            yield event;
          }
        },
      };
      return observed;
    },
  };
  return { harness, timings };
}
