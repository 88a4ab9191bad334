import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

/** Lock files git leaves at the top of a git dir when it is killed mid-command. */
const TOP_LEVEL_LOCKS = ["index.lock", "HEAD.lock", "config.lock", "packed-refs.lock", "shallow.lock"];

/**
 * Removes the `*.lock` files a killed git process left in the checkpoint store (`index.lock` after a
 * SIGKILL during `update-index`, `<ref>.lock` during `update-ref`). Git never removes them itself, so
 * one crash would otherwise stop every later checkpoint ("Unable to create index.lock: File exists").
 * Only call it while holding the runtime lock: only hankweave runs git in this private store, and the
 * runtime lock guarantees no other hankweave process is in it, so any lock file found is stale.
 * Returns the removed paths, relative to `gitDir`.
 */
export function clearStaleGitLocks(gitDir: string): string[] {
  const removed: string[] = [];
  for (const name of TOP_LEVEL_LOCKS) {
    if (removeIfPresent(join(gitDir, name))) removed.push(name);
  }
  for (const relative of lockFilesUnder(gitDir, "refs")) {
    if (removeIfPresent(join(gitDir, relative))) removed.push(relative);
  }
  return removed;
}

/** `*.lock` files under `gitDir/dir`, recursively, relative to `gitDir`; none when it does not exist. */
function lockFilesUnder(gitDir: string, dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(gitDir, dir), { recursive: true, encoding: "utf8" });
  } catch {
    return [];
  }
  return names.filter((name) => name.endsWith(".lock")).map((name) => join(dir, name));
}

function removeIfPresent(path: string): boolean {
  try {
    rmSync(path);
    return true;
  } catch {
    return false;
  }
}
