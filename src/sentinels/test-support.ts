import type { JournaledEvent } from "../events/index.ts";

/** Shared by the sentinel tests: journaled events built from a type and a payload. */

let seq = 0;

/** An event as the journal would hold it; the payload is not validated (tests state only what matters). */
export function eventOf(type: string, data: Record<string, unknown> = {}): JournaledEvent {
  seq += 1;
  return {
    v: 1,
    id: `e-${seq}`,
    seq,
    timestamp: "2025-01-01T00:00:00.000Z",
    type,
    data,
  } as unknown as JournaledEvent;
}

/** The types of a list of events, to compare matches briefly. */
export function typesOf(events: readonly JournaledEvent[] | undefined): string[] | undefined {
  return events?.map((event) => event.type);
}
