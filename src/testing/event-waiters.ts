import type { EventOf, JournaledEvent, JournaledType } from "../journal/index.ts";

/** Promises for events of a running test: resolved by the sink's listener, or at once from the past. */
export interface EventWaiters {
  waitFor<T extends JournaledType>(type: T, match?: (event: EventOf<T>) => boolean): Promise<EventOf<T>>;
  /** Called for every event after it was appended to `seen`. */
  notify(event: JournaledEvent): void;
}

interface Waiter {
  readonly accepts: (event: JournaledEvent) => boolean;
  readonly resolve: (event: JournaledEvent) => void;
}

export function createEventWaiters(seen: readonly JournaledEvent[]): EventWaiters {
  let waiters: Waiter[] = [];
  return {
    waitFor<T extends JournaledType>(type: T, match?: (event: EventOf<T>) => boolean): Promise<EventOf<T>> {
      const accepts = (event: JournaledEvent): boolean =>
        event.type === type && (match === undefined || match(event as EventOf<T>));
      const found = seen.find(accepts);
      if (found !== undefined) return Promise.resolve(found as EventOf<T>);
      return new Promise((resolve) => {
        waiters.push({ accepts, resolve: (event) => resolve(event as EventOf<T>) });
      });
    },
    notify(event: JournaledEvent): void {
      const matched = waiters.filter((waiter) => waiter.accepts(event));
      if (matched.length === 0) return;
      waiters = waiters.filter((waiter) => !matched.includes(waiter));
      for (const waiter of matched) waiter.resolve(event);
    },
  };
}
