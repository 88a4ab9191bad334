import { isAbsolute, relative, sep } from "node:path";
import { DATA_SOURCE_DIR } from "../hank/ref-workspace.ts";
import type { GlobSet } from "../util/glob-set.ts";

/**
 * Paths inside the checkpoint work tree (agentRoot): `/`-separated, relative, normalized. Pure.
 */

/** Top-level entries of the work tree that are never checkpointed: the data link and the rig archive. */
export const EXCLUDED_TOP_LEVEL: readonly string[] = [DATA_SOURCE_DIR, "rigArchive"];
/** Directory names never checkpointed at any depth (compared case-insensitively). */
export const EXCLUDED_ANY_DEPTH: readonly string[] = [".hankweave", ".git"];

/** True for a path the checkpointer must never record, remove or restore. */
export function isMandatoryExcluded(path: string): boolean {
  const parts = path.split("/");
  const top = parts[0];
  if (top !== undefined && EXCLUDED_TOP_LEVEL.includes(top)) return true;
  return parts.some((part) => EXCLUDED_ANY_DEPTH.includes(part.toLowerCase()));
}

/**
 * A path as the harness reported it (relative to the work tree, or absolute) as a normalized
 * work-tree path: `.` for the work tree itself, undefined when it lies outside.
 */
export function toWorkTreePath(workTree: string, path: string): string | undefined {
  const rel = isAbsolute(path) ? relative(workTree, path) : path;
  if (isAbsolute(rel)) return undefined;
  const parts = rel.split(sep === "/" ? "/" : /[\\/]/).filter((part) => part !== "" && part !== ".");
  if (parts.includes("..")) return undefined;
  return parts.length === 0 ? "." : parts.join("/");
}

/** The parent directories of `path`, deepest first (`a/b/c` → `a/b`, `a`). */
export function parentDirectories(path: string): string[] {
  const parts = path.split("/");
  const out: string[] = [];
  for (let n = parts.length - 1; n > 0; n--) out.push(parts.slice(0, n).join("/"));
  return out;
}

/**
 * Changed paths inside the work tree that a glob matches, or that are directories a glob may reach
 * into; `whole-tree` when the work tree itself is reported as changed. Both stores read reported
 * changes this way.
 */
export function relevantChanged(
  workTree: string,
  globs: GlobSet,
  changedPaths: readonly string[],
): string[] | "whole-tree" {
  const out = new Set<string>();
  for (const raw of changedPaths) {
    const path = toWorkTreePath(workTree, raw);
    if (path === ".") return "whole-tree";
    if (path === undefined || isMandatoryExcluded(path)) continue;
    if (globs.matches(path) || globs.mayContain(path)) out.add(path);
  }
  return [...out];
}
