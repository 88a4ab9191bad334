import { isJournaled, type JournaledEvent, JournaledEventSchema, RECORD_VERSION } from "../events/events.ts";

/**
 * Parses one journal line. Returns null for a line that is not a record of ours: bad JSON, another record
 * version, an unknown or connection type, or (with `validate`) a payload the union rejects.
 *
 * Without `validate` only the envelope is checked. That is the fast path for long journals, which our own
 * writer produced from typed events; ask for `validate` when the file may come from elsewhere.
 */
export function parseRecord(line: string, validate: boolean): JournaledEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (validate) {
    const parsed = JournaledEventSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
  }
  return hasEnvelope(value) ? value : null;
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
