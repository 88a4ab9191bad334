import { createHash } from "node:crypto";
import { readdirSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { inflateLoose, type ObjectType } from "./loose-objects.ts";
import { type PackEntry, writePack } from "./write-pack.ts";

/**
 * Above these, the loose objects are left to `git repack`: many objects, many bytes, blobs worth git's
 * delta search (a file appended to at every codon is stored as its new lines, not as new copies), or
 * many packs already (git's geometric repack merges them). Sizes are of the compressed loose files.
 */
const MAX_OBJECTS = 8192;
const MAX_COMPRESSED_BYTES = 1024 * 1024;
const MAX_BLOB_BYTES = 64 * 1024;
const MAX_PACKS = 16;

/**
 * Packs the store's loose objects from this process when they are few and small, which is what a run
 * of codons that change little leaves: one commit per codon, a tree or two. A `git repack` of 200 such
 * commits took 110-160 ms here, nearly all of it reading each loose file (a map, an unmap and a trim
 * per object) and two process starts; reading them from here and writing the pack takes a few ms.
 * Returns how many objects were packed (their loose files removed), or undefined when the objects are
 * for git (see the limits above), as they are when a loose file is not the object its name says.
 *
 * Only the run's writer calls it, after the background consolidation ended: nothing else writes objects
 * meanwhile. The loose files go only once the pack and its index are in place (`writePack`); a kill in
 * between leaves each object twice, which git reads either way and the next consolidation folds. The
 * emptied object directories stay: the next run's objects go there without creating them again.
 */
export function packLooseObjects(gitDir: string): number | undefined {
  const objectsDir = join(gitDir, "objects");
  const packDir = join(objectsDir, "pack");
  if (countPacks(packDir) >= MAX_PACKS) return undefined;
  const loose = listLoose(objectsDir);
  if (loose === undefined) return undefined;
  if (loose.length === 0) return 0;
  const entries: PackEntry[] = [];
  let bytes = 0;
  let blobBytes = 0;
  for (const { id, path } of loose) {
    const stored = readFileSync(path);
    const entry = parseLoose(id, stored);
    if (entry === undefined) return undefined;
    bytes += stored.length;
    if (entry.type === "blob") blobBytes += stored.length;
    if (bytes > MAX_COMPRESSED_BYTES || blobBytes > MAX_BLOB_BYTES) return undefined;
    entries.push(entry);
  }
  writePack(packDir, entries);
  for (const { path } of loose) removeFile(path);
  return entries.length;
}

/** Removes a packed loose file; one already gone (a concurrent `git prune-packed`) is as good. */
function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

function countPacks(packDir: string): number {
  try {
    return readdirSync(packDir).filter((name) => name.endsWith(".idx")).length;
  } catch {
    return 0;
  }
}

/** Every loose object file (`objects/<2 hex>/<38 hex>`); undefined above `MAX_OBJECTS`. */
function listLoose(objectsDir: string): { id: string; path: string }[] | undefined {
  const found: { id: string; path: string }[] = [];
  for (const dir of readdirSync(objectsDir)) {
    if (!/^[0-9a-f]{2}$/.test(dir)) continue;
    for (const name of readdirSync(join(objectsDir, dir))) {
      if (!/^[0-9a-f]{38}$/.test(name)) continue;
      found.push({ id: `${dir}${name}`, path: join(objectsDir, dir, name) });
      if (found.length > MAX_OBJECTS) return undefined;
    }
  }
  return found;
}

/** A loose object's type and body: zlib over `<type> <size>\0<body>`; undefined when it is not one. */
function parseLoose(id: string, stored: Buffer): PackEntry | undefined {
  let raw: Buffer;
  try {
    raw = inflateLoose(stored);
  } catch {
    return undefined;
  }
  const nul = raw.indexOf(0);
  const match = /^(blob|tree|commit) (\d+)$/.exec(raw.subarray(0, Math.max(nul, 0)).toString("latin1"));
  if (nul < 0 || match === null) return undefined;
  const body = raw.subarray(nul + 1);
  if (body.length !== Number(match[2])) return undefined;
  // A file whose content is not its name's object stays loose, for git to report.
  if (createHash("sha1").update(raw).digest("hex") !== id) return undefined;
  return { id, type: match[1] as ObjectType, body };
}
