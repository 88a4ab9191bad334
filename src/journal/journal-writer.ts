import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  type Stats,
  statSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import type { EventOf, JournaledType } from "../events/events.ts";
import { syncDirectory } from "../util/sync-directory.ts";
import { writeAll } from "../util/write-all.ts";
import { type EnvelopeOptions, type EventDraft, envelopeOf } from "./envelope.ts";
import { JournalError } from "./journal-error.ts";
import { isSameFile, type JournalReplaced, putJournalBack } from "./journal-restore.ts";
import { parseRecord } from "./parse-record.ts";
import { chainedLine, lineHash } from "./record-chain.ts";
import { scanLinesBackward, tornTailLength, withPath } from "./scan-lines.ts";
import type { SecretMask } from "./secret-mask.ts";
import { rememberWrittenJson } from "./written-json.ts";

/**
 * When appended records reach the disk. Every mode survives a killed process (a record is in the file
 * once `append` returns); they differ on an OS crash or power loss:
 * - `os` (default): the OS writes the file back when it decides;
 * - `boundary`: `flush()` fsyncs, and the runner calls it at every codon boundary (plus creation,
 *   repair and close): what a boundary journaled is on disk before the next codon starts;
 * - `append`: fsync after every append (about 0.1–1 ms each).
 */
export type JournalDurability = "os" | "boundary" | "append";

export interface JournalWriterOptions extends EnvelopeOptions {
  readonly durability?: JournalDurability;
  /** The same as `durability: "append"`. */
  readonly durable?: boolean;
  /**
   * Called once the writer has put back a journal it found replaced (see `JournalWriter`), before the
   * append that found it is written; an append from here is journaled first.
   */
  readonly onReplaced?: (replaced: JournalReplaced) => void;
  /** Known secret values, masked in every string of every event before it is written (see secret-mask). */
  readonly mask?: SecretMask;
}

export type { EventDraft };

/** What opening found: the torn bytes it cut off and where `seq` continues from. */
export interface JournalOpening {
  readonly repairedBytes: number;
  readonly lastSeq: number;
}

/**
 * The append-only writer of `events.jsonl`. One writer per file (the runtime lock guarantees it).
 *
 * Framing: one JSON record per line, LF-terminated, written with a single `writeSync` on an fd kept
 * open. Torn tail: a crash mid-write can leave an unterminated fragment; that record was never
 * acknowledged, so `open` truncates the file back to its last LF before appending, and the next record
 * starts on its own line. `seq` continues from the last readable record (found by reading only the tail).
 * Each line carries the hash of the line before it (`prev`, see record-chain), continued from the last
 * line already in the file.
 *
 * Replaced file: an agent works beside the journal and may replace it (`sed -i` renames an edited copy
 * over it). Appending on would write into a file no path reaches any more, and every record would be
 * lost. So the writer checks that the path still leads to its file (one `stat`) at every flush and
 * close, and before an append when the last check is `PATH_CHECK_INTERVAL_MS` old; when it does not,
 * it puts its own file's records back at the path (all of them: the ones appended since the check
 * are in its file too), keeping what it found there as `events.jsonl.replaced-<n>` (see
 * journal-restore). A stat before every append cost as much as the append's write (about 7 µs each,
 * ten per codon); a replacement is now seen within the interval, or at the codon's boundary.
 */
export const PATH_CHECK_INTERVAL_MS = 50;

export class JournalWriter {
  readonly path: string;
  readonly opening: JournalOpening;
  readonly #options: JournalWriterOptions;
  readonly #durability: JournalDurability;
  #fd: number | null;
  /** The file behind `#fd`, to recognise it at `path`. */
  #own: Stats;
  #size: number;
  #lastSeq: number;
  /** The hash of the last line in the file: the next record's `prev`. */
  #prev: string | undefined;
  /** When the path was last checked to lead to `#own` (`performance.now()`). */
  #pathCheckedAt = Number.NEGATIVE_INFINITY;

  private constructor(
    path: string,
    fd: number,
    own: Stats,
    tail: JournalTail,
    options: JournalWriterOptions,
  ) {
    this.path = path;
    this.opening = { repairedBytes: tail.repairedBytes, lastSeq: tail.lastSeq };
    this.#options = options;
    this.#durability = options.durability ?? (options.durable === true ? "append" : "os");
    this.#fd = fd;
    this.#own = own;
    this.#size = own.size - tail.repairedBytes;
    this.#lastSeq = tail.lastSeq;
    this.#prev = tail.lastLineHash;
  }

  static open(path: string, options: JournalWriterOptions = {}): JournalWriter {
    mkdirSync(dirname(path), { recursive: true });
    const created = !existsSync(path);
    const fd = openSync(path, "a+");
    const syncs = (options.durability ?? (options.durable === true ? "append" : "os")) !== "os";
    try {
      const own = fstatSync(fd);
      const { size } = own;
      const repairedBytes = tornTailLength(fd, size);
      if (repairedBytes > 0) {
        ftruncateSync(fd, size - repairedBytes);
        if (syncs) fdatasyncSync(fd);
      }
      if (created && syncs) syncDirectory(dirname(path));
      const end = size - repairedBytes;
      return new JournalWriter(path, fd, own, { repairedBytes, ...readTail(fd, end) }, options);
    } catch (error) {
      closeSync(fd);
      throw withPath(error, path);
    }
  }

  /** The `seq` of the last record in the file (0 for an empty journal). */
  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** Appends one event and returns it as written: the same object goes to the broadcast. */
  append<T extends JournaledType>(draft: EventDraft<T>): EventOf<T> {
    const fd = this.#fdAtPath(PATH_CHECK_INTERVAL_MS);
    const seq = this.#lastSeq + 1;
    const event = envelopeOf(this.#masked(draft), seq, this.#options);
    const prev = this.#prev;
    try {
      this.#write(fd, `${this.#chain(event)}\n`);
    } catch (error) {
      this.#prev = prev;
      throw error;
    }
    this.#lastSeq = seq;
    return event;
  }

  /**
   * Appends several events with one write: a killed process leaves all of them or none (a write to a
   * local file is not cut by a signal), so events that only make sense together stay together.
   */
  appendAll(drafts: readonly EventDraft<JournaledType>[]): EventOf<JournaledType>[] {
    const fd = this.#fdAtPath(PATH_CHECK_INTERVAL_MS);
    const events = drafts.map((draft, index) =>
      envelopeOf(this.#masked(draft), this.#lastSeq + 1 + index, this.#options),
    );
    if (events.length === 0) return events;
    const prev = this.#prev;
    try {
      this.#write(fd, events.map((event) => `${this.#chain(event)}\n`).join(""));
    } catch (error) {
      this.#prev = prev;
      throw error;
    }
    this.#lastSeq += events.length;
    return events;
  }

  /**
   * A codon boundary: with `durability: "boundary"`, everything appended so far is forced to disk;
   * otherwise nothing happens (`sync` forces it in every mode).
   */
  flush(): void {
    this.#fdAtPath();
    if (this.#durability === "boundary") this.sync();
  }

  /** Forces everything appended so far to disk. */
  sync(): void {
    fdatasyncSync(this.#openFd());
  }

  /** Closes the file (after a last fsync unless the durability is `os`); later appends throw. Idempotent. */
  close(): void {
    if (this.#fd === null) return;
    this.#fdAtPath();
    const fd = this.#fd;
    this.#fd = null;
    try {
      if (this.#durability !== "os") fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** The draft with known secret values masked in its data. */
  #masked<T extends JournaledType>(draft: EventDraft<T>): EventDraft<T> {
    const mask = this.#options.mask;
    if (mask === undefined) return draft;
    const data = mask.data(draft.data);
    return data === draft.data ? draft : { ...draft, data };
  }

  /**
   * The record's line, linked to the line before it; the link moves on to this line. The event's JSON
   * is kept for those who send the published event on (`writtenJsonOf`).
   */
  #chain(event: EventOf<JournaledType>): string {
    const json = JSON.stringify(event);
    rememberWrittenJson(event, json);
    const line = chainedLine(json, this.#prev);
    this.#prev = lineHash(line);
    return line;
  }

  #openFd(): number {
    if (this.#fd === null) throw new JournalError("closed", `journal ${this.path} is closed`);
    return this.#fd;
  }

  /**
   * The open descriptor, once the path leads to its file again (see the class comment). When the
   * journal's directory is gone too, the execution itself was removed: there is nothing to put the
   * journal back into, and the writer goes on with its file as before.
   */
  #fdAtPath(maxAgeMs = 0): number {
    const fd = this.#openFd();
    const now = performance.now();
    if (now - this.#pathCheckedAt < maxAgeMs) return fd;
    this.#pathCheckedAt = now;
    if (isSameFile(statSync(this.path, { throwIfNoEntry: false }), this.#own)) return fd;
    if (!existsSync(dirname(this.path))) return fd;
    let back: ReturnType<typeof putJournalBack>;
    try {
      back = putJournalBack(fd, this.#size, this.path);
    } catch (error) {
      throw withPath(error, this.path);
    }
    closeSync(fd);
    this.#fd = back.fd;
    this.#own = fstatSync(back.fd);
    this.#options.onReplaced?.(back.replaced);
    return this.#openFd();
  }

  /**
   * Writes whole lines; on failure cuts the file back so no partial line stays behind, then rethrows.
   * The text goes to `writeSync` as a string (Node encodes it without a Buffer of ours); the rare
   * short write continues from an encoded copy.
   */
  #write(fd: number, text: string): void {
    let length = 0;
    try {
      const written = writeSync(fd, text);
      length = Buffer.byteLength(text, "utf8");
      if (written < length) writeAll(fd, Buffer.from(text, "utf8"), written);
      if (this.#durability === "append") fdatasyncSync(fd);
    } catch (error) {
      try {
        ftruncateSync(fd, this.#size);
      } catch {
        // The original error matters more; the next open repairs any torn tail anyway.
      }
      throw withPath(error, this.path);
    }
    this.#size += length;
  }
}

interface JournalTail {
  readonly repairedBytes: number;
  readonly lastSeq: number;
  readonly lastLineHash: string | undefined;
}

/**
 * What appending continues from, in bytes [0, end): the hash of the last line (readable or not: the
 * chain links lines) and the `seq` of the newest readable record (0 when there is none).
 */
function readTail(fd: number, end: number): Omit<JournalTail, "repairedBytes"> {
  let lastSeq = 0;
  let lastLineHash: string | undefined;
  scanLinesBackward(fd, end, (line) => {
    lastLineHash ??= lineHash(line);
    const event = parseRecord(line.toString("utf8"), false);
    if (event === null) return true;
    lastSeq = event.seq;
    return false;
  });
  return { lastSeq, lastLineHash };
}
