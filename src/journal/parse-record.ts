import { isJournaled, type JournaledEvent, JournaledEventSchema, RECORD_VERSION } from "../events/events.ts";
import type { ChainLink } from "./record-chain.ts";
import { lineHash } from "./record-chain.ts";

/**
 * Parses one journal line. Returns null for a line that is not a record of ours: bad JSON, another record
 * version, an unknown or connection type, or (with `validate`) a payload the union rejects. The record's
 * hash link (`prev`, see record-chain) is not part of the event and is left out.
 *
 * Without `validate` only the envelope is checked. That is the fast path for long journals, which our own
 * writer produced from typed events; ask for `validate` when the file may come from elsewhere.
 */
export function parseRecord(line: string, validate: boolean): JournaledEvent | null {
  return parseValue(line, validate).event;
}

export interface ParsedLine {
  readonly event: JournaledEvent | null;
  /** The line's place in the hash chain (its `seq` is null when it is not a record of ours). */
  readonly link: ChainLink;
}

/** `parseRecord`, plus what the hash chain needs of the line. */
export function parseLine(line: string, validate: boolean): ParsedLine {
  const { event, prev } = parseValue(line, validate);
  return { event, link: { hash: lineHash(line), prev, seq: event?.seq ?? null } };
}

function parseValue(
  line: string,
  validate: boolean,
): { event: JournaledEvent | null; prev: string | undefined } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { event: null, prev: undefined };
  }
  const { record, prev } = withoutPrev(value);
  return { event: validate ? validated(record) : hasEnvelope(record) ? record : null, prev };
}

/** The record without its `prev` field (a new object only when it has one). */
function withoutPrev(value: unknown): { record: unknown; prev: string | undefined } {
  if (typeof value !== "object" || value === null || !("prev" in value))
    return { record: value, prev: undefined };
  const { prev, ...record } = value as Record<string, unknown>;
  return { record, prev: typeof prev === "string" ? prev : String(prev) };
}

function validated(value: unknown): JournaledEvent | null {
  const parsed = JournaledEventSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function hasEnvelope(value: unknown): value is JournaledEvent {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record.v === RECORD_VERSION &&
    typeof record.seq === "number" &&
    Number.isSafeInteger(record.seq) &&
    record.seq > 0 &&
    typeof record.id === "string" &&
    typeof record.timestamp === "string" &&
    typeof record.type === "string" &&
    isJournaled(record.type) &&
    typeof record.data === "object" &&
    record.data !== null
  );
}
