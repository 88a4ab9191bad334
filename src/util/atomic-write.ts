import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { syncDirectory } from "./sync-directory.ts";

export { syncDirectory };

/**
 * Replaces `path` with `text` so that a reader sees either the old or the new content, never a torn
 * file: the text goes to a temp file beside the target (same filesystem, so rename is atomic), is
 * fsynced, then renamed over the target, and the directory entry is made durable. The temp name carries
 * `tag` (e.g. the pid) so two processes writing the same target never share a temp file.
 */
export function writeFileAtomic(path: string, text: string, tag: string | number): void {
  const temp = join(dirname(path), `${tempPrefix(path)}${tag}.tmp`);
  try {
    writeDurably(temp, text);
    renameSync(temp, path);
  } catch (error) {
    removeQuietly(temp);
    throw error;
  }
  syncDirectory(dirname(path));
}

/**
 * Whether `name`, a file in `path`'s directory, is a temp file of `writeFileAtomic(path, ...)`: one a
 * kill left there before its rename.
 */
export function isAtomicTempOf(path: string, name: string): boolean {
  const prefix = tempPrefix(path);
  return name.length > prefix.length + ".tmp".length && name.startsWith(prefix) && name.endsWith(".tmp");
}

function tempPrefix(path: string): string {
  return `.${basename(path)}.`;
}

/** Writes `text` to `path` (truncating) and fsyncs it before returning. */
export function writeDurably(path: string, text: string, flag = "w"): void {
  const fd = openSync(path, flag);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Nothing to clean up.
  }
}
