import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
} from "node:fs";
import { join } from "node:path";
import { deflateSync, inflateSync, type ZlibOptions } from "node:zlib";
import { writeAll } from "../../util/write-all.ts";
import type { SpareFile, SpareFiles } from "./spare-files.ts";
import { readStoredZlib, storedZlib } from "./stored-zlib.ts";

/**
 * Git's object format, written from this process: an object is `<type> <size>\0<body>`, named by the
 * SHA-1 of those bytes and stored zlib-compressed at `objects/<2 hex>/<38 hex>`. Writing the few
 * objects of a checkpoint here costs tens of microseconds; a git process costs milliseconds. The store
 * is created by `git init` with its default (SHA-1) object format, which `init` checks.
 */
export type ObjectType = "blob" | "tree" | "commit";

/** The object id of a body: 40 hex digits. */
export function objectId(type: ObjectType, body: Buffer): string {
  return createHash("sha1").update(objectHeader(type, body)).update(body).digest("hex");
}

function objectHeader(type: ObjectType, body: Buffer): Buffer {
  return Buffer.from(`${type} ${body.length}\0`, "utf8");
}

/** Where loose object `id` lives in `gitDir`. */
export function loosePath(gitDir: string, id: string): string {
  return join(gitDir, "objects", id.slice(0, 2), id.slice(2));
}

/** How `writeObject` may write: the id the caller already computed, spare files made ahead of time. */
export interface WriteObjectOptions {
  /** The id the caller already computed with `objectId` for this very body. */
  readonly knownId?: string;
  /** Where the object's file may come from instead of being created now (see `SpareFiles`). */
  readonly spares?: SpareFiles | undefined;
}

/**
 * Writes an object and returns its id and whether a file was written (false when the object was
 * already there as a loose object). Crash-safe: the compressed bytes go to a temporary file (a spare
 * made ahead of time, else one created in the object's directory, named as git names its own:
 * `tmp_obj_*`, which `git gc` cleans up) and are renamed into place whole, so a reader never sees a
 * partial object. Objects already packed may be written again as loose ones: git reads either, and the
 * next consolidation packs them once.
 */
export function writeObject(
  gitDir: string,
  type: ObjectType,
  body: Buffer,
  options: WriteObjectOptions = {},
): { id: string; written: boolean } {
  const header = objectHeader(type, body);
  const id = options.knownId ?? createHash("sha1").update(header).update(body).digest("hex");
  const path = loosePath(gitDir, id);
  if (existsSync(path)) return { id, written: false };
  const dir = join(gitDir, "objects", id.slice(0, 2));
  const compressed = looseStream(Buffer.concat([header, body]));
  const spares = options.spares;
  const spare = spares?.take();
  if (
    spares === undefined ||
    spare === undefined ||
    !placeInSpare(spares, spare, { compressed, dir, path })
  ) {
    writeCreatingFile(dir, path, compressed);
  }
  return { id, written: true };
}

/**
 * Where a commit's new objects go: written loose (`looseSink`) or into a pack (`PackSink`). `put`
 * receives the id the caller computed for this very body and says whether it stored the object (false
 * when it already had it).
 */
export interface ObjectSink {
  put(type: ObjectType, body: Buffer, id: string): boolean;
}

/** The sink that writes each object loose, at once (`writeObject`). */
export function looseSink(gitDir: string, spares?: SpareFiles): ObjectSink {
  return { put: (type, body, id) => writeObject(gitDir, type, body, { knownId: id, spares }).written };
}

function writeCreatingFile(dir: string, path: string, compressed: Buffer): void {
  const temp = join(dir, `tmp_obj_${randomBytes(6).toString("hex")}`);
  const fd = openInFreshDirectory(dir, temp);
  try {
    writeAll(fd, compressed);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}

/**
 * Writes the object into a spare and renames it into place, providing the object's directory when it
 * is missing (see `openInFreshDirectory` for why it may vanish meanwhile). False, with the spare
 * removed, when the spare itself is gone (another process cleared the spares): the caller creates the
 * file.
 */
function placeInSpare(
  spares: SpareFiles,
  spare: SpareFile,
  { compressed, dir, path }: { compressed: Buffer; dir: string; path: string },
): boolean {
  try {
    writeAll(spare.fd, compressed);
  } finally {
    closeSync(spare.fd);
  }
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      if (attempt > 1) spares.provideDirectory(dir);
      renameSync(spare.path, path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        rmSync(spare.path, { force: true });
        throw error;
      }
    }
  }
  rmSync(spare.path, { force: true });
  return false;
}

/** Objects up to this size are compressed with a window and hash tables sized to them. */
const SMALL_OBJECT_BYTES = 16 * 1024;

/**
 * zlib allocates and clears its window and hash tables on every call (about 256 KB at the defaults),
 * which costs a commit or a small tree several times its compression (45 us against 9 us for a
 * 300-byte commit here, 5,000 calls). A small object gets a window no larger than itself plus zlib's
 * look-ahead (2^9 to 2^15 bytes) and a hash table to match: the same bytes out, give or take a few, and
 * any inflater reads them (the window size is in the stream's header, and git inflates with the
 * largest). `level` 1 is git's own default for loose objects, which live until the store is packed.
 */
export function deflateOptions(size: number, level = 1): ZlibOptions {
  if (size > SMALL_OBJECT_BYTES) return { level };
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(size + ZLIB_LOOKAHEAD))));
  return { level, windowBits, memLevel: windowBits - 8 };
}

/** zlib's MIN_LOOKAHEAD: how far past the window's end the compressor reads. */
const ZLIB_LOOKAHEAD = 262;

/** Loose objects up to this size are stored uncompressed: framed, they still fit one 4 KB block. */
const STORED_OBJECT_BYTES = 4000;

/**
 * A loose object's zlib stream: a small one stored as it is (see `storedZlib`; it lives until the store
 * is packed, and takes one file-system block either way), a larger one compressed at level 1, git's
 * own default for loose objects.
 */
function looseStream(raw: Buffer): Buffer {
  return raw.length <= STORED_OBJECT_BYTES ? storedZlib(raw) : deflateSync(raw, deflateOptions(raw.length));
}

/**
 * The bytes a loose object's file holds, `<type> <size>\0<body>`: a stored stream read as it is, any
 * other inflated by zlib (which throws on a damaged one).
 */
export function inflateLoose(stored: Buffer): Buffer {
  return readStoredZlib(stored) ?? inflateSync(stored);
}

/**
 * Opens a new file in `dir`, creating the directory when it is missing. A background `git repack -d`
 * (its prune-packed step) removes object directories it emptied, so the directory may vanish between
 * `mkdir` and `open`, or inside `mkdir` itself (a recursive mkdir that finds the directory present
 * checks it with a `stat`, which then fails with ENOENT): either case creates it again, a bounded
 * number of times.
 */
function openInFreshDirectory(dir: string, file: string): number {
  for (let attempt = 1; ; attempt++) {
    try {
      // The directory usually exists: open first, create it only when the open says it is missing.
      if (attempt > 1) mkdirSync(dir, { recursive: true });
      return openSync(file, "wx", 0o444);
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      if (!missing || attempt >= 6) throw error;
    }
  }
}

/**
 * The tree a commit names, read from the commit's loose object; undefined when the commit is not a
 * loose object here (packed, or absent: the caller asks git) or is not a commit.
 */
export function treeOfLooseCommit(gitDir: string, id: string): string | undefined {
  let stored: Buffer;
  try {
    stored = readFileSync(loosePath(gitDir, id));
  } catch {
    return undefined;
  }
  const raw = inflateLoose(stored);
  const header = raw.subarray(0, Math.min(raw.length, 64)).toString("latin1");
  const match = /^commit \d+\0tree ([0-9a-f]{40})\n/.exec(header);
  return match?.[1];
}
