import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  linkSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import * as zlib from "node:zlib";
import { writeAll } from "../../util/write-all.ts";
import { deflateOptions, type ObjectType } from "./loose-objects.ts";
import { storedZlib } from "./stored-zlib.ts";

/** One object for a pack: its id (40 hex digits), type and uncompressed body. */
export interface PackEntry {
  readonly id: string;
  readonly type: ObjectType;
  readonly body: Buffer;
}

/** Git's type numbers in a pack entry's header. */
const TYPE_CODES: Readonly<Record<ObjectType, number>> = { commit: 1, tree: 2, blob: 3 };

/** Offsets of version-2 indexes hold 31 bits; a larger pack needs the 64-bit table, never written here. */
const MAX_PACK_OFFSET = 2 ** 31 - 1;

/** Entries are gathered into writes of about this size: one system call per object costs more. */
const WRITE_CHUNK_BYTES = 1024 * 1024;

/**
 * Writes `entries` as one pack in `packDir` (`objects/pack`), with its version-2 index, and returns the
 * pack's name (`pack-<checksum>`). Every object is stored whole (no deltas: callers pack small objects
 * this way and leave the rest to `git repack`), compressed at zlib's default level, as git packs.
 */
export function writePack(packDir: string, entries: readonly PackEntry[]): string {
  const stream = new PackStream(packDir, 6);
  try {
    for (const entry of entries) stream.add(entry);
    return stream.finish();
  } catch (error) {
    stream.abort();
    throw error;
  }
}

export interface LocatedEntry {
  readonly id: Buffer;
  readonly offset: number;
  readonly crc: number;
}

/**
 * A pack written object by object, for callers that do not hold all their objects at once (a whole
 * workspace's snapshot). The format is git's (Documentation/gitformat-pack): `PACK`, version 2, the
 * count, each entry as a type-and-size header and its zlib stream, then the SHA-1 of all that; the
 * index holds the fan-out table, the sorted ids, each entry's CRC-32 and offset, the pack's checksum
 * and its own. The count is known only at the end, so it is written then and the checksum computed by
 * reading the file back, as `git fast-import` does.
 *
 * Crash-safe as git's own packing is: both files are written under temporary names and synced, then
 * the pack is renamed into place and the index last, which is what makes git read the pack. A kill
 * before that leaves temporary files (git's `tmp_pack_` and `tmp_idx_` prefixes, which `git gc`
 * removes) and no object anyone refers to. Callers move a ref onto the objects only after `finish`.
 */
export class PackStream {
  readonly #packDir: string;
  readonly #level: number;
  readonly #storeBelow: number;
  readonly #tempPack: string;
  readonly #fd: number;
  readonly #located: LocatedEntry[] = [];
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #offset = 12;
  #open = true;

  /**
   * `level`: zlib's compression level (1 favours speed, 6 is git's default); bodies shorter than
   * `storeBelow` bytes are stored uncompressed (`storedZlib`), which any inflater reads.
   */
  constructor(packDir: string, level: number, storeBelow = 0) {
    this.#packDir = packDir;
    this.#level = level;
    this.#storeBelow = storeBelow;
    this.#tempPack = join(packDir, `tmp_pack_${randomBytes(6).toString("hex")}`);
    this.#fd = openSync(this.#tempPack, "wx+", 0o444);
    this.#pending.push(Buffer.alloc(12));
    this.#pendingBytes = 12;
  }

  /** Bytes the pack holds so far; callers start another pack before `MAX_PACK_OFFSET`. */
  get size(): number {
    return this.#offset;
  }

  get count(): number {
    return this.#located.length;
  }

  add(entry: PackEntry): void {
    if (this.#offset > MAX_PACK_OFFSET) throw new RangeError("A pack written here stays under 2 GB.");
    const encoded = encodeEntry(entry, this.#offset, this.#level, this.#storeBelow);
    this.#located.push(encoded.located);
    this.#offset += encoded.bytes;
    this.#pending.push(...encoded.chunks);
    this.#pendingBytes += encoded.bytes;
    if (this.#pendingBytes >= WRITE_CHUNK_BYTES) this.#flush();
  }

  /** Completes the pack and its index and puts both in place; returns the pack's name. */
  finish(): string {
    this.#flush();
    this.#open = false;
    return sealPack({ fd: this.#fd, path: this.#tempPack, size: this.#offset }, this.#located, this.#packDir);
  }

  /** Drops the unfinished pack. */
  abort(): void {
    if (this.#open) closeSync(this.#fd);
    this.#open = false;
    rmSync(this.#tempPack, { force: true });
  }

  #flush(): void {
    if (this.#pending.length === 0) return;
    writeAll(
      this.#fd,
      this.#pending.length === 1 ? (this.#pending[0] as Buffer) : Buffer.concat(this.#pending),
    );
    this.#pending = [];
    this.#pendingBytes = 0;
  }
}

/** A pack being written: its open file (read and write), its path, and the bytes written after the header. */
export interface OpenPack {
  readonly fd: number;
  readonly path: string;
  readonly size: number;
}

/**
 * Completes a pack whose entries are written (`size` bytes, the first 12 reserved for the header) and
 * puts it in place with its index (`completePackFile`, then `placePack`), closing its file. Returns the
 * pack's name; removes the pack's file and the temporary index on failure.
 */
export function sealPack(pack: OpenPack, located: readonly LocatedEntry[], packDir: string): string {
  try {
    let checksum: Buffer;
    try {
      checksum = completePackFile(pack.fd, pack.size, located.length);
    } finally {
      closeSync(pack.fd);
    }
    return placePack(pack.path, located, checksum, packDir);
  } finally {
    rmSync(pack.path, { force: true });
  }
}

/**
 * Writes the header (with `count`) and the trailing checksum of a pack whose entries fill `size` bytes
 * after the 12 of the header, cuts anything after the checksum, and syncs the file; returns the checksum. Rewriting both is harmless, so
 * a caller may append more entries over the checksum and complete the file again.
 */
export function completePackFile(fd: number, size: number, count: number): Buffer {
  const header = Buffer.alloc(12);
  header.write("PACK", 0, "latin1");
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(count, 8);
  writeSync(fd, header, 0, 12, 0);
  const checksum = checksumOf(fd, size);
  writeSync(fd, checksum, 0, checksum.length, size);
  // Bytes past the checksum (a write cut short and not truncated) would make git reject the pack.
  ftruncateSync(fd, size + checksum.length);
  fsyncSync(fd);
  return checksum;
}

/**
 * Puts a completed pack file in place: its index written under a temporary name, synced and renamed
 * into `packDir` first, then the pack renamed (or, with `keep`, hard-linked) beside it, which is what
 * makes git read the pack (git skips an index whose pack is missing). A kill between the two leaves an
 * index git ignores and the pack's file where it was, for the caller to complete again (same bytes,
 * same name). Returns the pack's name. On failure the temporary index is removed.
 */
export function placePack(
  path: string,
  located: readonly LocatedEntry[],
  checksum: Buffer,
  packDir: string,
  keep = false,
): string {
  const name = `pack-${checksum.toString("hex")}`;
  const tempIndex = join(packDir, `tmp_idx_${randomBytes(6).toString("hex")}`);
  const packPath = join(packDir, `${name}.pack`);
  try {
    writeSynced(tempIndex, buildIndex(located, checksum));
    renameSync(tempIndex, join(packDir, `${name}.idx`));
    if (!keep) renameSync(path, packPath);
    else if (!existsSync(packPath)) linkSync(path, packPath);
  } finally {
    rmSync(tempIndex, { force: true });
  }
  return name;
}

/** SHA-1 of a pack's first `size` bytes, read back from the file. */
function checksumOf(fd: number, size: number): Buffer {
  const hash = createHash("sha1");
  const chunk = Buffer.alloc(Math.min(WRITE_CHUNK_BYTES, size));
  for (let at = 0; at < size; ) {
    const read = readSync(fd, chunk, 0, Math.min(chunk.length, size - at), at);
    if (read === 0) throw new Error("the pack being written is shorter than what was written to it");
    hash.update(chunk.subarray(0, read));
    at += read;
  }
  return hash.digest();
}

/** One entry of a pack at `offset`: its header and zlib stream, and where the index finds it. */
export interface EncodedEntry {
  readonly chunks: readonly [Buffer, Buffer];
  readonly bytes: number;
  readonly located: LocatedEntry;
}

/**
 * Encodes `entry` for a pack: bodies shorter than `storeBelow` bytes are stored uncompressed
 * (`storedZlib`), the others deflated at `level`; the CRC-32 covers the header and the stream.
 */
export function encodeEntry(
  entry: PackEntry,
  offset: number,
  level: number,
  storeBelow: number,
): EncodedEntry {
  const data =
    entry.body.length < storeBelow
      ? storedZlib(entry.body)
      : zlib.deflateSync(entry.body, deflateOptions(entry.body.length, level));
  const header = entryHeader(TYPE_CODES[entry.type], entry.body.length);
  return {
    chunks: [header, data],
    bytes: header.length + data.length,
    located: { id: Buffer.from(entry.id, "hex"), offset, crc: crc32(data, crc32(header)) },
  };
}

/** Type in bits 4-6 of the first byte, the size in its low 4 bits and then 7 bits a byte, low first. */
function entryHeader(type: number, size: number): Buffer {
  const bytes: number[] = [];
  let byte = (type << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}

export function buildIndex(located: readonly LocatedEntry[], packChecksum: Buffer): Buffer {
  const sorted = [...located].sort((a, b) => Buffer.compare(a.id, b.id));
  const count = sorted.length;
  const index = Buffer.alloc(8 + 256 * 4 + count * (20 + 4 + 4) + 40);
  index.writeUInt32BE(0xff744f63, 0); // "\377tOc"
  index.writeUInt32BE(2, 4);
  const fanout = new Array<number>(256).fill(0);
  for (const entry of sorted) fanout[entry.id[0] ?? 0] = (fanout[entry.id[0] ?? 0] ?? 0) + 1;
  let cumulative = 0;
  fanout.forEach((inBucket, bucket) => {
    cumulative += inBucket;
    index.writeUInt32BE(cumulative, 8 + bucket * 4);
  });
  const names = 8 + 256 * 4;
  const crcs = names + count * 20;
  const offsets = crcs + count * 4;
  sorted.forEach((entry, i) => {
    entry.id.copy(index, names + i * 20);
    index.writeUInt32BE(entry.crc, crcs + i * 4);
    index.writeUInt32BE(entry.offset, offsets + i * 4);
  });
  const trailer = offsets + count * 4;
  packChecksum.copy(index, trailer);
  createHash("sha1")
    .update(index.subarray(0, trailer + 20))
    .digest()
    .copy(index, trailer + 20);
  return index;
}

function writeSynced(path: string, bytes: Buffer): void {
  const fd = openSync(path, "wx", 0o444);
  try {
    writeAll(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * CRC-32 (IEEE 802.3) as zlib computes it, continuing from `value` (the CRC of the bytes before): zlib's
 * own from Node 20.15 and 22.2, else by table.
 */
export const crc32: (bytes: Buffer, value?: number) => number =
  typeof zlib.crc32 === "function" ? zlib.crc32 : crc32ByTable;

function crc32ByTable(bytes: Buffer, value = 0): number {
  let crc = (value ^ 0xffffffff) >>> 0;
  for (let i = 0; i < bytes.length; i++) crc = (CRC_TABLE[(crc ^ (bytes[i] ?? 0)) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
