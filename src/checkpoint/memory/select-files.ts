import type { Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { compileGlobs, type GlobSet } from "../../util/glob-set.ts";
import { isMandatoryExcluded, parentDirectories, relevantChanged } from "../work-tree-paths.ts";
import { createUntrackedFilter, type UntrackedFilter } from "./untracked-filter.ts";

export interface SelectFilesInput {
  readonly workTree: string;
  readonly globs: readonly string[];
  /** The tracked set's paths: always candidates, whatever the `.gitignore` rules say. */
  readonly tracked: Iterable<string>;
  readonly changedPaths?: readonly string[];
}

/**
 * The paths a commit must refresh: files of the selection that exist (added or updated) and tracked
 * ones that vanished (removed), as the git store selects them. Candidates are the tracked paths (even
 * ignored ones, deleted ones included) and the untracked, not ignored files; the globs then filter
 * them and the mandatory excludes are dropped. With `changedPaths`, only those paths and what lies
 * under them are looked at; a reported work tree (`.`) means the whole tree. Sorted.
 */
export async function selectCommitPaths(input: SelectFilesInput): Promise<string[]> {
  const changed = input.changedPaths;
  if (changed === undefined) return scanSelection(input.workTree, input.globs, input.tracked);
  if (input.globs.length === 0) return [];
  const globs = compileGlobs(input.globs);
  const paths = relevantChanged(input.workTree, globs, changed);
  if (paths === "whole-tree") return scanSelection(input.workTree, input.globs, input.tracked);
  if (paths.length === 0) return [];
  const reported = new Set(paths);
  const found = new Set<string>();
  for (const path of input.tracked) {
    if (reported.has(path) || parentDirectories(path).some((dir) => reported.has(dir))) found.add(path);
  }
  const filter = createUntrackedFilter(input.workTree);
  for (const path of paths)
    for (const file of await untrackedAt(input.workTree, path, globs, filter)) found.add(file);
  return finish(found, globs);
}

/** The selection as it stands: the globs resolved over the whole tree (also what restore cleans). */
export async function scanSelection(
  workTree: string,
  globPatterns: readonly string[],
  tracked: Iterable<string>,
): Promise<string[]> {
  if (globPatterns.length === 0) return [];
  const globs = compileGlobs(globPatterns);
  const found = new Set(tracked);
  await walk(workTree, "", globs, createUntrackedFilter(workTree), found);
  return finish(found, globs);
}

function finish(found: ReadonlySet<string>, globs: GlobSet): string[] {
  return [...found].filter((path) => !isMandatoryExcluded(path) && globs.matches(path)).sort();
}

/** The untracked, not ignored files at `path`: itself when it is a file or link, its contents when a directory. */
async function untrackedAt(
  workTree: string,
  path: string,
  globs: GlobSet,
  filter: UntrackedFilter,
): Promise<string[]> {
  if (!(await filter.reachable(path))) return [];
  const stats = await lstat(join(workTree, path)).catch(() => undefined);
  if (stats === undefined) return [];
  if (stats.isFile() || stats.isSymbolicLink()) return (await filter.ignored(path, false)) ? [] : [path];
  if (!stats.isDirectory() || !(await filter.canEnter(path))) return [];
  const found = new Set<string>();
  await walk(workTree, path, globs, filter, found);
  return [...found];
}

/**
 * Adds the untracked, not ignored files and links under `dir` ("" for the top) that a glob may match,
 * never following a link and skipping directories no glob reaches into.
 */
async function walk(
  workTree: string,
  dir: string,
  globs: GlobSet,
  filter: UntrackedFilter,
  found: Set<string>,
): Promise<void> {
  const entries: Dirent[] = await readdir(join(workTree, dir), { withFileTypes: true }).catch(
    (error: unknown) => {
      if (dir === "") throw error;
      return [];
    },
  );
  for (const entry of entries) {
    const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
    if (isMandatoryExcluded(path)) continue;
    if (entry.isDirectory()) {
      if (globs.mayContain(path) && (await filter.canEnter(path)))
        await walk(workTree, path, globs, filter, found);
    } else if ((entry.isFile() || entry.isSymbolicLink()) && globs.matches(path)) {
      if (!(await filter.ignored(path, false))) found.add(path);
    }
  }
}
