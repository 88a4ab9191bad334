import { closeSync, fsyncSync, openSync } from "node:fs";

/**
 * Makes a directory's entries (a new or renamed file) durable. Best effort: some filesystems (and
 * Windows) refuse to open or fsync a directory, and the file operation itself has already happened.
 */
export function syncDirectory(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, "r");
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // See above: durability of the entry is not available here.
  } finally {
    closeSync(fd);
  }
}
