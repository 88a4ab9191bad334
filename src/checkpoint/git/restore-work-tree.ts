import type { Stats } from "node:fs";
import { lstat, rmdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { isMandatoryExcluded, parentDirectories } from "../work-tree-paths.ts";
import { splitNul, treeFiles } from "./git-queries.ts";
import type { RunGit } from "./run-git.ts";
import { scanSelection } from "./select-paths.ts";

export interface RestoreWorkTreeInput {
  readonly workTree: string;
  /** The full id of the checkpoint to restore. */
  readonly target: string;
  readonly globs: readonly string[];
  /** The tracked set before the restore: the files of the tree the next commit would start from. */
  readonly tracked: readonly string[];
}

export interface RestoreWorkTreeResult {
  readonly restored: string[];
  readonly removed: string[];
}

/**
 * Makes the selection (tracked files plus untracked, not ignored files matching the globs) equal to the
 * target checkpoint: first deletes selection files the target lacks, then loads the target into the
 * index keeping stat data of unchanged entries (`read-tree --reset`), refreshes it, and checks out exactly
 * the entries that differ from the work tree. Never follows a symbolic link out of the work tree and
 * never touches the mandatory excludes.
 */
export async function restoreWorkTree(
  git: RunGit,
  input: RestoreWorkTreeInput,
): Promise<RestoreWorkTreeResult> {
  const targetFiles = new Set(await treeFiles(git, input.target));
  const selection = new Set([...input.tracked, ...(await scanSelection(git, input.globs))]);
  const stale = [...selection].filter((path) => !targetFiles.has(path) && !isMandatoryExcluded(path));
  const removed = await removeFiles(input.workTree, stale);
  // `--reset`, not `-m`: an entry whose file changed since it was staged (a crash mid-codon, a user
  // edit, a copied execution's new stat data) must not make the restore refuse.
  await git({ args: ["read-tree", "--reset", input.target] });
  await git({ args: ["update-index", "-q", "--refresh"], okCodes: [0, 1] });
  const differing = splitNul((await git({ args: ["diff-files", "-z", "--name-only"] })).stdout);
  const restored = [...new Set(differing)].filter((path) => !isMandatoryExcluded(path));
  if (restored.length > 0) {
    await git({
      args: ["checkout-index", "--force", "-u", "-z", "--stdin"],
      input: `${restored.join("\0")}\0`,
    });
  }
  return { restored: restored.sort(), removed: removed.sort() };
}

/** Deletes the files (and symbolic links) among `paths`, then the directories that leaves empty. */
async function removeFiles(workTree: string, paths: readonly string[]): Promise<string[]> {
  const linked = new Map<string, boolean>();
  const removed: string[] = [];
  for (const path of paths) {
    if (await throughSymlink(workTree, path, linked)) continue;
    const stats = await lstat(join(workTree, path)).catch(() => undefined);
    if (stats === undefined || !(stats.isFile() || stats.isSymbolicLink())) continue;
    await unlink(join(workTree, path));
    removed.push(path);
  }
  await pruneEmptyDirectories(workTree, removed);
  return removed;
}

/** True when a parent of `path` is a symbolic link (or not a directory): deleting would act elsewhere. */
async function throughSymlink(workTree: string, path: string, cache: Map<string, boolean>): Promise<boolean> {
  for (const dir of parentDirectories(path)) {
    let bad = cache.get(dir);
    if (bad === undefined) {
      const stats: Stats | undefined = await lstat(join(workTree, dir)).catch(() => undefined);
      bad = stats !== undefined && !stats.isDirectory();
      cache.set(dir, bad);
    }
    if (bad) return true;
  }
  return false;
}

async function pruneEmptyDirectories(workTree: string, removed: readonly string[]): Promise<void> {
  const dirs = [...new Set(removed.flatMap(parentDirectories))];
  dirs.sort((a, b) => b.split("/").length - a.split("/").length);
  for (const dir of dirs) await rmdir(join(workTree, dir)).catch(() => undefined);
}
