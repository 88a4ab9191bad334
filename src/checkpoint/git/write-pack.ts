import { createHash, randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as zlib from "node:zlib";
import { writeAll } from "../../util/write-all.ts";
import { deflateOptions, type ObjectType } from "./loose-objects.ts";

/** One object for a pack: its id (40 hex digits), type and uncompressed body. */
export interface PackEntry {
  readonly id: string;
  readonly type: ObjectType;
  readonly body: Buffer;
}

/** Git's type numbers in a pack entry's header. */
const TYPE_CODES: Readonly<Record<ObjectType, number>> = { commit: 1, tree: 2, blob: 3 };

/** Offsets of version-2 indexes hold 31 bits; a larger pack needs the 64-bit table, never written here. */
const MAX_OFFSET = 2 ** 31 - 1;

/**
 * Writes `entries` as one pack in `packDir` (`objects/pack`), with its version-2 index, and returns the
 * pack's name (`pack-<checksum>`). Every object is stored whole (no deltas: callers pack small objects
 * this way and leave the rest to `git repack`). The format is git's (Documentation/gitformat-pack):
 * `PACK`, version 2, the count, each entry as a type-and-size header and its zlib stream, then the
 * SHA-1 of all that; the index holds the fan-out table, the sorted ids, each entry's CRC-32 and offset,
 * the pack's checksum and its own.
 *
 * Crash-safe as git's own packing is: both files are written under temporary names and synced, then
 * the pack is renamed into place and the index last, which is what makes git read the pack. A kill
 * before that leaves temporary files (git's `tmp_pack_` and `tmp_idx_` prefixes, which `git gc` removes)
 * and the objects where they were.
 */
export function writePack(packDir: string, entries: readonly PackEntry[]): string {
  const pack = buildPack(entries);
  const index = buildIndex(pack.located, pack.checksum);
  const name = `pack-${pack.checksum.toString("hex")}`;
  const suffix = randomBytes(6).toString("hex");
  const tempPack = join(packDir, `tmp_pack_${suffix}`);
  const tempIndex = join(packDir, `tmp_idx_${suffix}`);
  try {
    writeSynced(tempPack, pack.chunks);
    writeSynced(tempIndex, [index]);
    renameSync(tempPack, join(packDir, `${name}.pack`));
    renameSync(tempIndex, join(packDir, `${name}.idx`));
  } finally {
    rmSync(tempPack, { force: true });
    rmSync(tempIndex, { force: true });
  }
  return name;
}

interface LocatedEntry {
  readonly id: Buffer;
  readonly offset: number;
  readonly crc: number;
}

function buildPack(entries: readonly PackEntry[]): {
  chunks: Buffer[];
  checksum: Buffer;
  located: LocatedEntry[];
} {
  const header = Buffer.alloc(12);
  header.write("PACK", 0, "latin1");
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(entries.length, 8);
  const chunks = [header];
  const hash = createHash("sha1").update(header);
  const located: LocatedEntry[] = [];
  let offset = header.length;
  for (const entry of entries) {
    const bytes = Buffer.concat([
      entryHeader(TYPE_CODES[entry.type], entry.body.length),
      compress(entry.body),
    ]);
    if (offset > MAX_OFFSET) throw new RangeError("A pack written here stays under 2 GB.");
    located.push({ id: Buffer.from(entry.id, "hex"), offset, crc: crc32(bytes) });
    chunks.push(bytes);
    hash.update(bytes);
    offset += bytes.length;
  }
  const checksum = hash.digest();
  chunks.push(checksum);
  return { chunks, checksum, located };
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

/** zlib's default level, as git packs; tables sized to small bodies (see `deflateOptions`). */
function compress(body: Buffer): Buffer {
  return zlib.deflateSync(body, deflateOptions(body.length, 6));
}

function buildIndex(located: readonly LocatedEntry[], packChecksum: Buffer): Buffer {
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

function writeSynced(path: string, chunks: readonly Buffer[]): void {
  const fd = openSync(path, "wx", 0o444);
  try {
    for (const chunk of chunks) writeAll(fd, chunk);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** CRC-32 (IEEE 802.3) as zlib computes it: zlib's own from Node 20.15 and 22.2, else by table. */
const crc32: (bytes: Buffer) => number = typeof zlib.crc32 === "function" ? zlib.crc32 : crc32ByTable;

function crc32ByTable(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = (CRC_TABLE[(crc ^ (bytes[i] ?? 0)) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
