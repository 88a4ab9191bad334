import {
  closeSync,
  existsSync,
  fdatasyncSync,
  linkSync,
  openSync,
  readSync,
  renameSync,
  type Stats,
  statSync,
} from "node:fs";
import { dirname } from "node:path";
import { syncDirectory } from "../util/sync-directory.ts";
import { writeAll } from "../util/write-all.ts";

/**
 * Where the journal's records are copied while a replaced journal is put back. It exists only between
 * the copy and its rename over the journal: a kill in that window leaves the runtime's records here, and
 * the next start names this file as the one to move back.
 */
export function journalRestorePath(path: string): string {
  return `${path}.restoring`;
}

/** The journal was replaced under the writer (a rename over it, such as `sed -i`, or a delete). */
export interface JournalReplaced {
  readonly path: string;
  /** Where the file found at the journal's path was kept; undefined when the path was empty. */
  readonly keptAs: string | undefined;
}

/** Whether `found` (the journal path's stat) is still the file behind the writer's descriptor. */
export function isSameFile(found: Stats | undefined, own: Stats): boolean {
  return found !== undefined && found.ino === own.ino && found.dev === own.dev;
}

const CHUNK = 1 << 20;

/**
 * Puts the writer's file back at `path`: its first `size` bytes (every record it wrote) are copied to
 * the restore file and fsynced, a file found at `path` is kept beside it under a new name (a hard link,
 * so `path` never goes missing), and the copy is renamed over `path`. Returns the new file's descriptor,
 * opened for appending; the caller closes the old one.
 */
export function putJournalBack(
  fd: number,
  size: number,
  path: string,
): { fd: number; replaced: JournalReplaced } {
  const restore = journalRestorePath(path);
  copyPrefix(fd, size, restore);
  const keptAs = existsSync(path) ? keepAside(path) : undefined;
  renameSync(restore, path);
  syncDirectory(dirname(path));
  return { fd: openSync(path, "a+"), replaced: { path, keptAs } };
}

function copyPrefix(fd: number, size: number, to: string): void {
  const out = openSync(to, "w");
  try {
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size, 1)));
    for (let at = 0; at < size; ) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, size - at), at);
      if (read === 0) break;
      writeAll(out, buffer.subarray(0, read), 0);
      at += read;
    }
    fdatasyncSync(out);
  } finally {
    closeSync(out);
  }
}

/** Links the file at `path` to the first free `<path>.replaced-<n>` and returns that name. */
function keepAside(path: string): string {
  for (let n = 1; ; n++) {
    const aside = `${path}.replaced-${n}`;
    if (statSync(aside, { throwIfNoEntry: false }) !== undefined) continue;
    linkSync(path, aside);
    return aside;
  }
}
