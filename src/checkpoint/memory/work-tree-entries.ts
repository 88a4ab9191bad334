import type { Stats } from "node:fs";
import { lstat, mkdir, readFile, readlink, rm, rmdir, symlink, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parentDirectories } from "../work-tree-paths.ts";
import type { StoredEntry } from "./memory-store.ts";

/**
 * Reading and writing single work-tree entries the way git does: regular files (bytes and the owner's
 * executable bit) and symbolic links (their target, never followed). A path below a symbolic link or
 * a file is treated as absent, so nothing is ever read, written or deleted through a link.
 */

/** Answers "are all parents of this path real directories?", caching each directory's answer. */
export type ParentCheck = (path: string) => Promise<boolean>;

/** A fresh check: create one per operation, as the tree may change between operations. */
export function createParentCheck(workTree: string): ParentCheck {
  const isDirectory = new Map<string, boolean>();
  return async (path) => {
    for (const dir of parentDirectories(path).reverse()) {
      let ok = isDirectory.get(dir);
      if (ok === undefined) {
        ok = (await lstatOrUndefined(join(workTree, dir)))?.isDirectory() === true;
        isDirectory.set(dir, ok);
      }
      if (!ok) return false;
    }
    return true;
  };
}

/** The entry at `path` as a checkpoint would record it; undefined when absent, a directory or special. */
export async function readEntry(
  workTree: string,
  path: string,
  parentsOk: ParentCheck,
): Promise<StoredEntry | undefined> {
  if (!(await parentsOk(path))) return undefined;
  const abs = join(workTree, path);
  const stats = await lstatOrUndefined(abs);
  if (stats?.isSymbolicLink()) return { kind: "symlink", target: await readlink(abs) };
  if (!stats?.isFile()) return undefined;
  return { kind: "file", bytes: await readFile(abs), executable: (stats.mode & 0o100) !== 0 };
}

export function sameEntry(a: StoredEntry | undefined, b: StoredEntry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.kind === "symlink") return b.kind === "symlink" && a.target === b.target;
  if (b.kind === "symlink") return false;
  return a.executable === b.executable && a.bytes.equals(b.bytes);
}

/**
 * Writes `entry` at `path` as git's checkout does: a file or link standing where a parent directory
 * belongs is replaced by a directory, a directory standing where the entry belongs is removed with its
 * contents (the checkpoint's file wins), and an existing entry is unlinked first, so a link is replaced
 * rather than written through. New files get mode 0666 or 0777 less the umask, as in git.
 */
export async function writeEntry(workTree: string, path: string, entry: StoredEntry): Promise<void> {
  for (const dir of parentDirectories(path).reverse()) {
    const abs = join(workTree, dir);
    const stats = await lstatOrUndefined(abs);
    if (stats?.isDirectory()) continue;
    if (stats !== undefined) await unlink(abs);
    await mkdir(abs);
  }
  const abs = join(workTree, path);
  const stats = await lstatOrUndefined(abs);
  if (stats?.isDirectory()) await rm(abs, { recursive: true, force: true });
  else if (stats !== undefined) await unlink(abs);
  if (entry.kind === "symlink") await symlink(entry.target, abs);
  else await writeFile(abs, entry.bytes, { mode: entry.executable ? 0o777 : 0o666 });
}

/**
 * Deletes the files and links among `paths` (never through a link, never a directory), then the
 * directories that leaves empty. Returns the deleted paths.
 */
export async function removeFiles(workTree: string, paths: readonly string[]): Promise<string[]> {
  const parentsOk = createParentCheck(workTree);
  const removed: string[] = [];
  for (const path of paths) {
    if (!(await parentsOk(path))) continue;
    const stats = await lstatOrUndefined(join(workTree, path));
    if (stats === undefined || !(stats.isFile() || stats.isSymbolicLink())) continue;
    await unlink(join(workTree, path));
    removed.push(path);
  }
  const dirs = [...new Set(removed.flatMap(parentDirectories))];
  dirs.sort((a, b) => b.split("/").length - a.split("/").length);
  for (const dir of dirs) await rmdir(join(workTree, dir)).catch(() => undefined);
  return removed;
}

export function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  return lstat(path).catch(() => undefined);
}
