import { RunControl } from "../engine/index.ts";
import { createEventBus, type EventBus, readSince } from "../journal/index.ts";

/**
 * Carries the bus's warnings (a subscriber that threw, one that fell behind) to the run's journal once
 * it is open; a warning before then has no journal to go to and is kept until it is.
 */
export class WarningRelay {
  #emit: ((message: string) => void) | undefined;
  readonly #pending: string[] = [];

  report(message: string): void {
    if (this.#emit === undefined) this.#pending.push(message);
    else this.#emit(message);
  }

  connect(emit: (message: string) => void): void {
    this.#emit = emit;
    for (const message of this.#pending.splice(0)) emit(message);
  }
}

/** What a start shares with the run it starts. */
export interface RunChannels {
  readonly control: RunControl;
  readonly events: EventBus;
  readonly warnings: WarningRelay;
}

/**
 * A run's inbox and event bus. `journalPath` says where a late subscriber catches up from; it may be
 * unknown until the execution is open (no history before then).
 */
export function createRunChannels(newId: () => string, journalPath: () => string | undefined): RunChannels {
  const warnings = new WarningRelay();
  const events = createEventBus({
    history: (afterSeq) => {
      const path = journalPath();
      return path === undefined ? [] : readSince(path, afterSeq).events;
    },
    onWarning: (message) => warnings.report(message),
  });
  return { control: new RunControl(newId), events, warnings };
}

/** How long the end of a run waits for slow async subscribers to take their last events. */
export const DRAIN_TIMEOUT_MS = 5000;

/**
 * Closes the bus at the end of a run: async subscribers get the events still queued for them, for at
 * most `timeoutMs`; one that never settles cannot hold the run's result back longer than that.
 */
export async function drainBus(events: EventBus, timeoutMs = DRAIN_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([events.close(), timeout]);
  clearTimeout(timer);
}
