import { closeSync, fstatSync, openSync } from "node:fs";
import { open } from "node:fs/promises";
import type { JournaledEvent } from "../events/events.ts";
import { parseRecord } from "./parse-record.ts";
import { CHUNK_BYTES, forEachLine, scanLinesBackward, tornTailLength } from "./scan-lines.ts";

/**
 * Reading `events.jsonl`. Every reader follows the same framing rules: a record is one LF-terminated
 * line; an unterminated last fragment is a torn write and is ignored (`torn: true`), never counted; a
 * terminated line that is not a record of ours (bad JSON, blank, unknown type, failed validation) is
 * skipped and counted in `skipped`. A missing file reads as an empty journal.
 */

export interface ReadOptions {
  /** Parse every record against the event union (slow on long journals); otherwise check the envelope. */
  readonly validate?: boolean;
}

export interface ReadResult {
  /** In journal order. */
  readonly events: JournaledEvent[];
  readonly skipped: number;
  readonly torn: boolean;
}

export interface ReadSinceResult extends ReadResult {
  /** The newest record with `seq <= afterSeq`, or null when the scan reached the start of the file. */
  readonly boundary: JournaledEvent | null;
}

export interface ScanSummary {
  readonly count: number;
  readonly skipped: number;
  readonly torn: boolean;
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "ENOENT";
}

/** Opens the journal read-only for a synchronous backward scan; null when it does not exist. */
function withJournal<T>(path: string, use: (fd: number, size: number) => T): T | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  try {
    return use(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
}

/**
 * Scans backwards, newest record first, until `keep` returns false. Returns what was collected (in
 * journal order), the skip count and whether a torn fragment was ignored.
 */
function scanBackward(
  path: string,
  options: ReadOptions,
  keep: (event: JournaledEvent, collected: number) => boolean,
): { events: JournaledEvent[]; skipped: number; torn: boolean; stopper: JournaledEvent | null } {
  const validate = options.validate ?? false;
  const found = withJournal(path, (fd, size) => {
    const torn = tornTailLength(fd, size);
    const newestFirst: JournaledEvent[] = [];
    let skipped = 0;
    let stopper: JournaledEvent | null = null;
    scanLinesBackward(fd, size - torn, (line) => {
      const event = parseRecord(line.toString("utf8"), validate);
      if (event === null) {
        skipped++;
        return true;
      }
      if (!keep(event, newestFirst.length)) {
        stopper = event;
        return false;
      }
      newestFirst.push(event);
      return true;
    });
    return { events: newestFirst.reverse(), skipped, torn: torn > 0, stopper };
  });
  return found ?? { events: [], skipped: 0, torn: false, stopper: null };
}

/**
 * The last `n` records, oldest first, reading 64 KiB chunks backwards from the end: the cost depends on
 * `n`, not on the journal's length. Corrupt lines met on the way are skipped (and counted), so the
 * result still holds `n` records when the journal has them.
 */
export function readTail(path: string, n: number, options: ReadOptions = {}): ReadResult {
  if (n <= 0) return { events: [], skipped: 0, torn: false };
  const { events, skipped, torn } = scanBackward(path, options, (_event, collected) => collected < n);
  return { events, skipped, torn };
}

/**
 * The records with `seq > afterSeq`, oldest first, read backwards until an older record is met: what a
 * snapshot taken at `afterSeq` has not seen yet. `boundary` is that older record, so the caller can check
 * it is the very record the snapshot ended on.
 */
export function readSince(path: string, afterSeq: number, options: ReadOptions = {}): ReadSinceResult {
  const { events, skipped, torn, stopper } = scanBackward(path, options, (event) => event.seq > afterSeq);
  return { events, skipped, torn, boundary: stopper };
}

/**
 * Streams every record to `visit`, in journal order, holding one chunk in memory: the way to replay a
 * long journal. Resolves with counts once the whole file has been read.
 */
export async function forEachEvent(
  path: string,
  visit: (event: JournaledEvent) => void,
  options: ReadOptions = {},
): Promise<ScanSummary> {
  const validate = options.validate ?? false;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if (isMissing(error)) return { count: 0, skipped: 0, torn: false };
    throw error;
  }
  let count = 0;
  let skipped = 0;
  const stream = handle.createReadStream({ highWaterMark: CHUNK_BYTES });
  const torn = await forEachLine(stream, (line) => {
    const event = parseRecord(line.toString("utf8"), validate);
    if (event === null) skipped++;
    else {
      count++;
      visit(event);
    }
  });
  return { count, skipped, torn };
}

/** Every record, oldest first. Streams the file; the events themselves are held in memory. */
export async function readAll(path: string, options: ReadOptions = {}): Promise<ReadResult> {
  const events: JournaledEvent[] = [];
  const { skipped, torn } = await forEachEvent(path, (event) => events.push(event), options);
  return { events, skipped, torn };
}
