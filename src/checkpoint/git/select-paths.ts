import { compileGlobs, gitPathspecs } from "../../util/glob-set.ts";
import {
  EXCLUDED_ANY_DEPTH,
  EXCLUDED_TOP_LEVEL,
  isMandatoryExcluded,
  relevantChanged,
} from "../work-tree-paths.ts";
import { listFiles, literalPathspecs } from "./git-queries.ts";
import type { RunGit } from "./run-git.ts";

/** Every file git knows about or would add: tracked ones (deleted included) and untracked, not ignored ones. */
const LIST_FLAGS = ["--cached", "--others", "--exclude-standard"] as const;

/** Excludes as pathspecs, so the scan does not descend into them even when a `.gitignore` re-includes them. */
const EXCLUDE_PATHSPECS = [
  ...EXCLUDED_TOP_LEVEL.map((name) => `:(exclude,literal)${name}`),
  ...EXCLUDED_ANY_DEPTH.flatMap((name) => [`:(exclude,glob)**/${name}`, `:(exclude,glob)**/${name}/**`]),
];

export interface SelectPathsInput {
  readonly workTree: string;
  readonly globs: readonly string[];
  readonly changedPaths?: readonly string[];
  /** Above this many changed paths, one scan is cheaper than matching each as a pathspec. */
  readonly maxChangedPaths: number;
}

/**
 * The paths a commit must pass to `update-index --add --remove`: files of the selection that exist
 * (added or refreshed) and tracked ones that vanished (removed). With `changedPaths`, git is asked only
 * about those paths (and what lies under them), so nothing scans the work tree; otherwise the globs are
 * resolved over the whole tree. Either way `.gitignore` rules apply to untracked files, git's answer is
 * filtered through the same glob matcher, and the mandatory excludes are dropped. Sorted, so a path
 * comes before the paths under it: a file that became a directory is removed before its new contents
 * are added (`update-index` refuses the other order).
 */
export async function selectCommitPaths(git: RunGit, input: SelectPathsInput): Promise<string[]> {
  const changed = input.changedPaths;
  if (changed === undefined || changed.length > input.maxChangedPaths) return scanSelection(git, input.globs);
  if (input.globs.length === 0) return [];
  const globs = compileGlobs(input.globs);
  const paths = relevantChanged(input.workTree, globs, changed);
  if (paths === "whole-tree") return scanSelection(git, input.globs);
  if (paths.length === 0) return [];
  const listed = await listFiles(git, LIST_FLAGS, literalPathspecs(paths));
  return [...new Set(listed)].filter((path) => !isMandatoryExcluded(path) && globs.matches(path)).sort();
}

/** The selection as it stands: the globs resolved over the whole tree (also what restore cleans). */
export async function scanSelection(git: RunGit, globPatterns: readonly string[]): Promise<string[]> {
  if (globPatterns.length === 0) return [];
  const globs = compileGlobs(globPatterns);
  const listed = await listFiles(git, LIST_FLAGS, [...gitPathspecs(globs), ...EXCLUDE_PATHSPECS]);
  return [...new Set(listed)].filter((path) => !isMandatoryExcluded(path) && globs.matches(path)).sort();
}
