import { createHash } from "node:crypto";

/**
 * Pure digests of a data source from its walked entries. Paths are relative, POSIX-separated, and in
 * walk order (siblings sorted by code unit), so the digest depends only on the tree, never on the
 * machine, the locale or the order the filesystem lists names in. A single-file data source is one
 * entry with path ".".
 */
export type DataEntry =
  | { readonly kind: "directory"; readonly path: string }
  | {
      readonly kind: "file";
      readonly path: string;
      readonly size: number;
      readonly mtimeMs: number;
      /** The inode change time: moves on every write and chmod, and cannot be set back (change detection). */
      readonly ctimeMs?: number;
    }
  /** Hashed by its target string; never followed, so a link cycle or a link out of the tree is harmless. */
  | { readonly kind: "symlink"; readonly path: string; readonly target: string }
  /** Sockets, FIFOs, devices: recorded by name only (reading a FIFO would block). */
  | { readonly kind: "other"; readonly path: string }
  /** A directory that could not be listed. */
  | { readonly kind: "unreadable"; readonly path: string };

export type DataHashMethod = "content" | "metadata";

/** Content digest: every file contributes its size and the sha256 of its bytes (`contentHashes` by path). */
export function contentDigest(
  entries: readonly DataEntry[],
  contentHashes: ReadonlyMap<string, string>,
): string {
  return digest("content", entries, (entry) => {
    if (entry.kind !== "file") return [];
    const hash = contentHashes.get(entry.path);
    if (hash === undefined) throw new Error(`contentDigest: no content hash for ${entry.path}`);
    return [entry.size, hash];
  });
}

/** Metadata digest, the fallback when content hashing runs out of time: sizes and whole-ms mtimes. */
export function metadataDigest(entries: readonly DataEntry[]): string {
  return digest("metadata", entries, (entry) =>
    entry.kind === "file" ? [entry.size, Math.trunc(entry.mtimeMs)] : [],
  );
}

/** Sorts names the same way on every platform: by UTF-16 code unit, not by locale. */
export function compareNames(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

function digest(
  method: DataHashMethod,
  entries: readonly DataEntry[],
  fileFields: (entry: DataEntry) => ReadonlyArray<string | number>,
): string {
  const hash = createHash("sha256").update(`hankweave-data-v1 ${method}\n`);
  for (const entry of entries) {
    const extra = entry.kind === "symlink" ? [entry.target] : fileFields(entry);
    // One JSON array per line: names containing tabs or newlines cannot forge another entry.
    hash.update(`${JSON.stringify([entry.kind, entry.path, ...extra])}\n`);
  }
  return hash.digest("hex");
}
