import { CheckpointError } from "../checkpoint-error.ts";
import type { RunGit } from "./run-git.ts";

/** Small read-only questions to the store, shared by the checkpointer's operations. */

/** The commit a revision names, or undefined when it names none. */
export async function resolveCommit(git: RunGit, revision: string): Promise<string | undefined> {
  const result = await git({
    args: ["rev-parse", "--verify", "--quiet", "--end-of-options", `${revision}^{commit}`],
    okCodes: [0, 1],
  });
  const sha = result.stdout.trim();
  return result.exitCode === 0 && /^[0-9a-f]{40,64}$/.test(sha) ? sha : undefined;
}

/** The commit a full or abbreviated id names; rejects with `unknown-checkpoint` otherwise. */
export async function requireCommit(git: RunGit, sha: string): Promise<string> {
  const full = isHexId(sha) ? await resolveCommit(git, sha) : undefined;
  if (full === undefined)
    throw new CheckpointError("unknown-checkpoint", `No checkpoint "${sha}" in this store.`);
  return full;
}

/** Ids the checkpointer accepts from callers: 4 to 64 hex digits, never a ref name or an option. */
export function isHexId(text: string): boolean {
  return /^[0-9a-fA-F]{4,64}$/.test(text);
}

/** The files recorded in a commit, sorted. */
export async function treeFiles(git: RunGit, commit: string): Promise<string[]> {
  const result = await git({ args: ["ls-tree", "-r", "-z", "--name-only", "--full-tree", commit] });
  return splitNul(result.stdout).sort();
}

/**
 * `git ls-files` with NUL framing over the given pathspecs. Nested repositories come back as `dir/`
 * and are dropped: their files belong to them, not to the checkpoint.
 */
export async function listFiles(
  git: RunGit,
  flags: readonly string[],
  pathspecs: readonly string[],
): Promise<string[]> {
  const result = await git({ args: ["ls-files", "-z", ...flags, "--", ...pathspecs] });
  return splitNul(result.stdout).filter((path) => !path.endsWith("/"));
}

export function splitNul(text: string): string[] {
  return text.split("\0").filter((part) => part !== "");
}

/** `:(literal)` pathspecs: file names are never read as globs or magic. */
export function literalPathspecs(paths: readonly string[]): string[] {
  return paths.map((path) => `:(literal)${path}`);
}
