import type { RestoreReport } from "../checkpointer.ts";
import { isMandatoryExcluded } from "../work-tree-paths.ts";
import { type MemoryCheckpointStore, requireCommit, type StoredTree } from "./memory-store.ts";
import { scanSelection } from "./select-files.ts";
import { createParentCheck, readEntry, removeFiles, sameEntry, writeEntry } from "./work-tree-entries.ts";

/**
 * Restores checkpoint `sha` (a full id or unique prefix) into the work tree and makes its files the
 * tracked set; no run line moves. Rejects with `unknown-checkpoint` before touching anything.
 */
export async function restoreCheckpoint(
  store: MemoryCheckpointStore,
  workTree: string,
  sha: string,
  globs: readonly string[],
): Promise<RestoreReport> {
  const target = requireCommit(store, sha);
  const tracked = [...store.index.keys()];
  const result = await restoreFiles({ workTree, target: target.tree, tracked, globs });
  store.index = new Map(target.tree);
  return { sha: target.sha, ...result };
}

export interface RestoreFilesInput {
  readonly workTree: string;
  /** The files of the checkpoint to restore. */
  readonly target: StoredTree;
  /** The tracked set before the restore. */
  readonly tracked: Iterable<string>;
  readonly globs: readonly string[];
}

export interface RestoreFilesResult {
  readonly restored: string[];
  readonly removed: string[];
}

/**
 * Makes the selection (the tracked set plus the untracked, not ignored files matching the globs) equal
 * to the target, in the git store's order: first deletes selection files the target lacks and prunes
 * the directories that empties, then writes the target's entries that are missing or differ in bytes,
 * executable bit or link target. Never acts through a symbolic link, never touches the mandatory
 * excludes. The caller makes the target the tracked set.
 */
export async function restoreFiles(input: RestoreFilesInput): Promise<RestoreFilesResult> {
  const tracked = [...input.tracked];
  const selection = new Set([...tracked, ...(await scanSelection(input.workTree, input.globs, tracked))]);
  const stale = [...selection].filter((path) => !input.target.has(path) && !isMandatoryExcluded(path));
  const removed = await removeFiles(input.workTree, stale.sort());
  // A write puts a directory where a parent file or link stood, or removes a directory standing where
  // the entry belongs (the target has nothing below it): cached parent answers stay right.
  const parentsOk = createParentCheck(input.workTree);
  const restored: string[] = [];
  for (const path of [...input.target.keys()].sort()) {
    const entry = input.target.get(path);
    if (entry === undefined || isMandatoryExcluded(path)) continue;
    if (sameEntry(await readEntry(input.workTree, path, parentsOk), entry)) continue;
    await writeEntry(input.workTree, path, entry);
    restored.push(path);
  }
  return { restored, removed: removed.sort() };
}
