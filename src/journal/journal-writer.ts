import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import type { EventOf, JournaledType } from "../events/events.ts";
import { syncDirectory } from "../util/sync-directory.ts";
import { type EnvelopeOptions, type EventDraft, envelopeOf } from "./envelope.ts";
import { JournalError } from "./journal-error.ts";
import { parseRecord } from "./parse-record.ts";
import { scanLinesBackward, tornTailLength } from "./scan-lines.ts";

export interface JournalWriterOptions extends EnvelopeOptions {
  /** `fdatasync` after every append (about 0.8 ms each); otherwise the OS decides when data hits disk. */
  readonly durable?: boolean;
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
 */
export class JournalWriter {
  readonly path: string;
  readonly opening: JournalOpening;
  readonly #options: JournalWriterOptions;
  #fd: number | null;
  #size: number;
  #lastSeq: number;

  private constructor(
    path: string,
    fd: number,
    size: number,
    opening: JournalOpening,
    options: JournalWriterOptions,
  ) {
    this.path = path;
    this.opening = opening;
    this.#options = options;
    this.#fd = fd;
    this.#size = size;
    this.#lastSeq = opening.lastSeq;
  }

  static open(path: string, options: JournalWriterOptions = {}): JournalWriter {
    mkdirSync(dirname(path), { recursive: true });
    const created = !existsSync(path);
    const fd = openSync(path, "a+");
    try {
      const size = fstatSync(fd).size;
      const repairedBytes = tornTailLength(fd, size);
      if (repairedBytes > 0) {
        ftruncateSync(fd, size - repairedBytes);
        if (options.durable) fdatasyncSync(fd);
      }
      if (created && options.durable) syncDirectory(dirname(path));
      const end = size - repairedBytes;
      return new JournalWriter(path, fd, end, { repairedBytes, lastSeq: lastSeqBefore(fd, end) }, options);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** The `seq` of the last record in the file (0 for an empty journal). */
  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** Appends one event and returns it as written: the same object goes to the broadcast. */
  append<T extends JournaledType>(draft: EventDraft<T>): EventOf<T> {
    const fd = this.#openFd();
    const seq = this.#lastSeq + 1;
    const event = envelopeOf(draft, seq, this.#options);
    this.#write(fd, Buffer.from(`${JSON.stringify(event)}\n`, "utf8"));
    this.#lastSeq = seq;
    return event;
  }

  /**
   * Appends several events with one write: a killed process leaves all of them or none (a write to a
   * local file is not cut by a signal), so events that only make sense together stay together.
   */
  appendAll(drafts: readonly EventDraft<JournaledType>[]): EventOf<JournaledType>[] {
    const fd = this.#openFd();
    const events = drafts.map((draft, index) => envelopeOf(draft, this.#lastSeq + 1 + index, this.#options));
    if (events.length === 0) return events;
    this.#write(fd, Buffer.from(events.map((event) => `${JSON.stringify(event)}\n`).join(""), "utf8"));
    this.#lastSeq += events.length;
    return events;
  }

  /** Forces everything appended so far to disk. */
  flush(): void {
    fdatasyncSync(this.#openFd());
  }

  /** Closes the file; later appends throw. Closing twice is harmless. */
  close(): void {
    if (this.#fd === null) return;
    const fd = this.#fd;
    this.#fd = null;
    closeSync(fd);
  }

  #openFd(): number {
    if (this.#fd === null) throw new JournalError("closed", `journal ${this.path} is closed`);
    return this.#fd;
  }

  /** Writes a whole line; on failure cuts the file back so no partial line stays behind, then rethrows. */
  #write(fd: number, bytes: Buffer): void {
    try {
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
      if (this.#options.durable) fdatasyncSync(fd);
    } catch (error) {
      try {
        ftruncateSync(fd, this.#size);
      } catch {
        // The original error matters more; the next open repairs any torn tail anyway.
      }
      throw error;
    }
    this.#size += bytes.length;
  }
}

/** The `seq` of the newest readable record in bytes [0, end), or 0 when there is none. */
function lastSeqBefore(fd: number, end: number): number {
  let seq = 0;
  scanLinesBackward(fd, end, (line) => {
    const event = parseRecord(line.toString("utf8"), false);
    if (event === null) return true;
    seq = event.seq;
    return false;
  });
  return seq;
}
