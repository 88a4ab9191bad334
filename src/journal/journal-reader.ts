import { closeSync, fstatSync, openSync } from "node:fs";
import { open } from "node:fs/promises";
import type { JournaledEvent } from "../events/events.ts";
import { parseLine, parseRecord } from "./parse-record.ts";
import { BackwardChain, type ChainBreak, type ChainLink, ForwardChain } from "./record-chain.ts";
import { CHUNK_BYTES, forEachLine, scanLinesBackward, tornTailLength, withPath } from "./scan-lines.ts";

/**
 * Reading `events.jsonl`. Every reader follows the same framing rules: a record is one LF-terminated
 * line; an unterminated last fragment is a torn write and is ignored (`torn: true`), never counted; a
 * terminated line that is not a record of ours (bad JSON, blank, unknown type, failed validation) is
 * skipped and counted in `skipped`. A missing file reads as an empty journal. Every reader checks the
 * hash chain over the lines it reads (see record-chain) and reports where it is broken in `chainBreaks`.
 */

export interface ReadOptions {
  /** Parse every record against the event union (slow on long journals); otherwise check the envelope. */
  readonly validate?: boolean;
  /** Check the hash chain of the lines read (default true; about 1.5 µs per line). */
  readonly verifyChain?: boolean;
}

export interface ReadResult {
  /** In journal order. */
  readonly events: JournaledEvent[];
  readonly skipped: number;
  readonly torn: boolean;
  /** Where the hash chain does not hold among the lines read, oldest first; empty when it holds. */
  readonly chainBreaks: ChainBreak[];
}

export interface ReadSinceResult extends ReadResult {
  /** The newest record with `seq <= afterSeq`, or null when the scan reached the start of the file. */
  readonly boundary: JournaledEvent | null;
}

export interface ScanSummary {
  readonly count: number;
  readonly skipped: number;
  readonly torn: boolean;
  readonly chainBreaks: ChainBreak[];
}

/** One line's event; its chain link goes to `link` when the chain is checked (hashing costs only then). */
function readLine(
  line: Buffer,
  validate: boolean,
  link: ((link: ChainLink) => void) | undefined,
): JournaledEvent | null {
  if (link === undefined) return parseRecord(line.toString("utf8"), validate);
  const parsed = parseLine(line.toString("utf8"), validate);
  link(parsed.link);
  return parsed.event;
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
  } catch (error) {
    throw withPath(error, path);
  } finally {
    closeSync(fd);
  }
}

/**
 * Scans backwards, newest record first, until `keep` returns false. Returns what was collected (in
 * journal order), the skip count, whether a torn fragment was ignored, and the chain breaks among the
 * lines visited (the stopping record's line included: it links the collected ones to the rest).
 */
function scanBackward(
  path: string,
  options: ReadOptions,
  keep: (event: JournaledEvent, collected: number) => boolean,
): ReadResult & { stopper: JournaledEvent | null } {
  const validate = options.validate ?? false;
  const chain = options.verifyChain === false ? undefined : new BackwardChain();
  const found = withJournal(path, (fd, size) => {
    const torn = tornTailLength(fd, size);
    const newestFirst: JournaledEvent[] = [];
    let skipped = 0;
    let stopper: JournaledEvent | null = null;
    scanLinesBackward(fd, size - torn, (line) => {
      const event = readLine(line, validate, chain && ((link) => chain.previous(link)));
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
    if (stopper === null) chain?.atStart();
    const chainBreaks = chain?.breaks ?? [];
    return { events: newestFirst.reverse(), skipped, torn: torn > 0, stopper, chainBreaks };
  });
  return found ?? { events: [], skipped: 0, torn: false, stopper: null, chainBreaks: [] };
}

/**
 * The last `n` records, oldest first, reading 64 KiB chunks backwards from the end: the cost depends on
 * `n`, not on the journal's length. Corrupt lines met on the way are skipped (and counted), so the
 * result still holds `n` records when the journal has them.
 */
export function readTail(path: string, n: number, options: ReadOptions = {}): ReadResult {
  if (n <= 0) return { events: [], skipped: 0, torn: false, chainBreaks: [] };
  const { events, skipped, torn, chainBreaks } = scanBackward(
    path,
    options,
    (_event, collected) => collected < n,
  );
  return { events, skipped, torn, chainBreaks };
}

/**
 * The records with `seq > afterSeq`, oldest first, read backwards until an older record is met: what a
 * snapshot taken at `afterSeq` has not seen yet. `boundary` is that older record, so the caller can check
 * it is the very record the snapshot ended on.
 */
export function readSince(path: string, afterSeq: number, options: ReadOptions = {}): ReadSinceResult {
  const { stopper, ...read } = scanBackward(path, options, (event) => event.seq > afterSeq);
  return { ...read, boundary: stopper };
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
    if (isMissing(error)) return { count: 0, skipped: 0, torn: false, chainBreaks: [] };
    throw error;
  }
  let count = 0;
  let skipped = 0;
  const chain = options.verifyChain === false ? undefined : new ForwardChain();
  const stream = handle.createReadStream({ highWaterMark: CHUNK_BYTES });
  const torn = await forEachLine(stream, (line) => {
    const event = readLine(line, validate, chain && ((link) => chain.next(link)));
    if (event === null) skipped++;
    else {
      count++;
      visit(event);
    }
  }).catch((error: unknown) => Promise.reject(withPath(error, path)));
  return { count, skipped, torn, chainBreaks: chain?.breaks ?? [] };
}

/** Every record, oldest first. Streams the file; the events themselves are held in memory. */
export async function readAll(path: string, options: ReadOptions = {}): Promise<ReadResult> {
  const events: JournaledEvent[] = [];
  const { skipped, torn, chainBreaks } = await forEachEvent(path, (event) => events.push(event), options);
  return { events, skipped, torn, chainBreaks };
}
