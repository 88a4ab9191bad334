import { rmdir } from "node:fs/promises";
import { join } from "node:path";
import { dirname } from "node:path/posix";

/**
 * After files were moved out, removes the directories they leave empty: for each `/`-separated path
 * relative to `root`, its parent directories from the deepest up, stopping at the first that is not
 * empty (or cannot go) and never removing `root` itself. Best effort; never throws.
 */
export async function removeEmptyParents(root: string, paths: readonly string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const path of paths) {
    for (let dir = dirname(path); dir !== "." && dir !== "/" && dir !== ""; dir = dirname(dir)) dirs.add(dir);
  }
  const deepestFirst = [...dirs].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const dir of deepestFirst) {
    try {
      await rmdir(join(root, dir));
    } catch {
      // Not empty, already gone, or not ours to remove: leave it.
    }
  }
}
