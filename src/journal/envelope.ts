import { randomUUID } from "node:crypto";
import type { DataOf, EventOf, JournaledType } from "../events/index.ts";
import { isJournaled, JournaledEventSchema, RECORD_VERSION } from "../events/index.ts";
import { JournalError } from "./journal-error.ts";

/** What a store gives to `append`; it adds `v` and `seq`, and `id`/`timestamp` when absent. */
export interface EventDraft<T extends JournaledType> {
  readonly type: T;
  readonly data: DataOf<T>;
  readonly id?: string;
  readonly timestamp?: string;
}

/** How a store stamps the envelope of the events it appends. */
export interface EnvelopeOptions {
  /** Parse every appended event against the union and throw on a mismatch (tests, development). */
  readonly validate?: boolean;
  readonly now?: () => Date;
  readonly newId?: () => string;
}

/**
 * The stored record of a draft at `seq`: `v`, `id`, `seq`, `timestamp`, `type`, `data`, with the
 * draft's own id and timestamp kept. Connection events are refused (they are never journaled), and
 * with `validate` an event the union rejects throws a `JournalError` naming the fields.
 */
export function envelopeOf<T extends JournaledType>(
  draft: EventDraft<T>,
  seq: number,
  options: EnvelopeOptions,
): EventOf<T> {
  if (!isJournaled(draft.type)) {
    throw new JournalError("connection-event", `'${draft.type}' is not a journaled event type`);
  }
  const event = {
    v: RECORD_VERSION,
    id: draft.id ?? (options.newId ?? randomUUID)(),
    seq,
    timestamp: draft.timestamp ?? (options.now === undefined ? isoNow() : options.now().toISOString()),
    type: draft.type,
    data: draft.data,
  } as EventOf<T>;
  if (options.validate) checkEvent(event);
  return event;
}

let lastMs = Number.NaN;
let lastIso = "";

/**
 * The wall clock as an ISO 8601 string, formatted once per millisecond: a codon journals about ten
 * events, mostly within the same millisecond, and formatting a date costs ten times reading the clock.
 */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

function checkEvent(event: EventOf<JournaledType>): void {
  const parsed = JournaledEventSchema.safeParse(event);
  if (parsed.success) return;
  const where = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
  throw new JournalError("invalid-event", `invalid '${event.type}' event: ${where}`);
}
