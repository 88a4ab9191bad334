import { createHash } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";

/**
 * The trace of an execution. Every run of one execution (its first start and every resume) belongs to
 * one trace, whose ids are derived from the `id` of the journal's first record: that record is written
 * once, when the execution starts, and never changes, so the trace id is journaled without a new event
 * or field, and a resumed run finds it by reading one line.
 *
 * `rootSpanId` is the id of the execution's (virtual) root: each run span names it as its parent, so a
 * backend groups the runs of an execution under one node. No span with that id is ever exported.
 */
export interface TraceRoot {
  readonly traceId: string;
  readonly rootSpanId: string;
}

export function traceRootOf(firstRecordId: string): TraceRoot {
  const digest = createHash("sha256").update(`hankweave-trace:${firstRecordId}`).digest("hex");
  return { traceId: digest.slice(0, 32), rootSpanId: digest.slice(32, 48) };
}

/** The id of the journal's first record, or undefined when the journal is empty or missing. */
export function firstRecordId(journalPath: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(journalPath, "r");
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(8192);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, read).toString("utf8");
    const end = text.indexOf("\n");
    if (end < 0) return undefined;
    const record: unknown = JSON.parse(text.slice(0, end));
    return typeof record === "object" && record !== null && "id" in record && typeof record.id === "string"
      ? record.id
      : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
