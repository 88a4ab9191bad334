import { join } from "node:path";
import type { ObjectSink, ObjectType } from "./loose-objects.ts";
import { type PackEntry, PackStream } from "./write-pack.ts";

/** Fewer new objects than this are handed to the loose sink: a pack of a few objects is a file more. */
export const PACK_AT_OBJECTS = 64;

/**
 * Bodies shorter than this are stored uncompressed: zlib's set-up costs about 10 us an object whatever
 * its size (half the time of a snapshot of 50,000 small files), to save at most a few hundred bytes.
 */
const STORE_BELOW_BYTES = 1024;

/** A pack past this size is finished and another begun, well under what a version-2 index addresses. */
const MAX_PACK_BYTES = 1024 * 1024 * 1024;

/**
 * Stores a commit's new objects straight into packs, so a snapshot of a whole workspace creates a
 * couple of files instead of one loose file (and often one directory) per object: writing 50,000
 * loose objects spent most of its time in the file system. The first `PACK_AT_OBJECTS` objects are
 * held back; when no more come, they go to `loose` instead (a commit of a few files leaves no pack).
 * zlib level 1, git's own for loose objects, and small bodies stored: a snapshot is written once, on
 * the path to the first codon, and `git gc` may recompress it later.
 *
 * Nothing is visible to git until `finish` has put the packs in place (`PackStream`), so the caller
 * writes the commit and moves the ref only after `finish`: a kill before leaves temporary files only.
 */
export class PackSink implements ObjectSink {
  readonly #packDir: string;
  readonly #loose: ObjectSink;
  readonly #seen = new Set<string>();
  #held: PackEntry[] = [];
  #stream: PackStream | undefined;
  #looseWritten = 0;

  constructor(gitDir: string, loose: ObjectSink) {
    this.#packDir = join(gitDir, "objects", "pack");
    this.#loose = loose;
  }

  put(type: ObjectType, body: Buffer, id: string): boolean {
    if (this.#seen.has(id)) return false;
    this.#seen.add(id);
    const entry = { id, type, body };
    if (this.#stream === undefined) {
      this.#held.push(entry);
      if (this.#held.length < PACK_AT_OBJECTS) return true;
      this.#stream = new PackStream(this.#packDir, 1, STORE_BELOW_BYTES);
      for (const held of this.#held) this.#stream.add(held);
      this.#held = [];
      return true;
    }
    if (this.#stream.size > MAX_PACK_BYTES) {
      this.#stream.finish();
      this.#stream = new PackStream(this.#packDir, 1, STORE_BELOW_BYTES);
    }
    this.#stream.add(entry);
    return true;
  }

  /** Puts the packs in place, or the held objects loose; returns how many loose objects were written. */
  finish(): number {
    if (this.#stream !== undefined) {
      this.#stream.finish();
      this.#stream = undefined;
    }
    for (const { type, body, id } of this.#held) if (this.#loose.put(type, body, id)) this.#looseWritten++;
    this.#held = [];
    return this.#looseWritten;
  }

  /** Drops what is not yet in place (a failed snapshot). */
  abort(): void {
    this.#stream?.abort();
    this.#stream = undefined;
    this.#held = [];
  }
}
