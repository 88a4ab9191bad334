import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { checkWorkspaceGlob } from "../../hank/refs.ts";
import { compileGlobs, type GlobSet } from "../../util/glob-set.ts";
import { DATA_LINK_NAME, STATE_DIR_NAME } from "../execution-layout.ts";
import { fsErrorText } from "./fs-error-text.ts";

/** The archive directory's name; agentRoot never holds it, but a planted one is never scanned. */
export const RIG_ARCHIVE_NAME = "rigArchive";

export type WorkspaceEntryKind = "file" | "symlink";

/** A matched entry: `path` is agentRoot-relative with `/` separators. Symlinks are matched as links. */
export interface WorkspaceMatch {
  readonly path: string;
  readonly kind: WorkspaceEntryKind;
}

export interface WorkspaceScan {
  /** Sorted by path; each entry once, whichever globs matched it. */
  readonly matches: readonly WorkspaceMatch[];
  /** The globs (as given) that matched no entry. */
  readonly unmatchedGlobs: readonly string[];
  /** Entries a glob named but that are never taken, with the reason (a sentence fragment). */
  readonly skipped: ReadonlyArray<{ readonly path: string; readonly reason: string }>;
  /** Directories that could not be listed; what they hold is unknown. */
  readonly unreadable: ReadonlyArray<{ readonly path: string; readonly error: string }>;
}

/** A workspace glob list checked with `checkWorkspaceGlob`: the first bad glob's message, or null. */
export function workspaceGlobProblem(globs: readonly string[]): string | null {
  for (const glob of globs) {
    const check = checkWorkspaceGlob(glob);
    if (!check.ok) return check.message;
  }
  return null;
}

/**
 * Resolves workspace globs (git-style, `compileGlobs`) against agentRoot without ever following a
 * symbolic link: a matched link is returned as a link, a link to a directory is never entered. The
 * data link (`read_only_data_source`) and `rigArchive` at the top and any `.hankweave` directory are
 * never entered; `skipAbsolute` names further directories to leave out (an output directory inside
 * agentRoot). FIFOs, sockets and devices are skipped. Globs must have passed `workspaceGlobProblem`.
 */
export async function scanWorkspace(
  agentRoot: string,
  globs: readonly string[],
  skipAbsolute: readonly string[] = [],
): Promise<WorkspaceScan> {
  const state: ScanState = {
    agentRoot,
    sets: globs.map((glob) => ({ glob, set: compileGlobs([glob]), hit: false })),
    skipAbsolute,
    matches: [],
    skipped: [],
    unreadable: [],
  };
  await walk(state, "");
  return {
    matches: state.matches,
    unmatchedGlobs: state.sets.filter((s) => !s.hit).map((s) => s.glob),
    skipped: state.skipped,
    unreadable: state.unreadable,
  };
}

interface ScanState {
  readonly agentRoot: string;
  readonly sets: Array<{ readonly glob: string; readonly set: GlobSet; hit: boolean }>;
  readonly skipAbsolute: readonly string[];
  readonly matches: WorkspaceMatch[];
  readonly skipped: Array<{ path: string; reason: string }>;
  readonly unreadable: Array<{ path: string; error: string }>;
}

async function walk(state: ScanState, dir: string): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(join(state.agentRoot, dir), { withFileTypes: true });
  } catch (error) {
    state.unreadable.push({ path: dir === "" ? "." : dir, error: fsErrorText(error) });
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
    const excluded = exclusionOf(state, path);
    if (excluded !== null) reportExcluded(state, path, excluded);
    else if (entry.isDirectory()) {
      if (state.sets.some((s) => s.set.mayContain(path))) await walk(state, path);
    } else if (entry.isFile()) take(state, path, "file");
    else if (entry.isSymbolicLink()) visitLink(state, path);
    else if (anyMatch(state, path)) state.skipped.push({ path, reason: "is not a regular file" });
  }
}

/** Excluded entries are reported only to globs that name them, so `**` stays quiet. */
function reportExcluded(state: ScanState, path: string, reason: string): void {
  if (state.sets.some((s) => namesExplicitly(s.glob, path))) state.skipped.push({ path, reason });
}

/** A link is taken as a link when matched; a glob reaching below it is told the link is not followed. */
function visitLink(state: ScanState, path: string): void {
  if (take(state, path, "symlink")) return;
  if (state.sets.some((s) => s.set.mayContain(path) && namesExplicitly(s.glob, path))) {
    state.skipped.push({ path, reason: "is a symbolic link, which is never followed" });
  }
}

function take(state: ScanState, path: string, kind: WorkspaceEntryKind): boolean {
  let matched = false;
  for (const entry of state.sets) {
    if (!entry.set.matches(path)) continue;
    entry.hit = true;
    matched = true;
  }
  if (matched) state.matches.push({ path, kind });
  return matched;
}

function anyMatch(state: ScanState, path: string): boolean {
  return state.sets.some((s) => s.set.matches(path));
}

/** Why an entry (directory, link or file) is never taken nor entered, or null. */
function exclusionOf(state: ScanState, path: string): string | null {
  const parts = path.split("/");
  const name = parts[parts.length - 1] ?? "";
  if (name.toLowerCase() === STATE_DIR_NAME) return "is hankweave's state directory";
  if (name.toLowerCase() === ".git") return "is a git directory, which is never copied or archived";
  if (parts.length === 1 && name === DATA_LINK_NAME) return "is the read-only link to the input data";
  if (parts.length === 1 && name === RIG_ARCHIVE_NAME) return "is reserved for the archive";
  if (state.skipAbsolute.includes(join(state.agentRoot, path))) return "is the output directory";
  return null;
}

/** True when the glob's leading segments spell out `path` literally (a glob like `**` does not). */
function namesExplicitly(glob: string, path: string): boolean {
  const globParts = glob.split("/").filter((part) => part !== "" && part !== ".");
  const pathParts = path.split("/");
  return pathParts.every((part, i) => globParts[i]?.toLowerCase() === part.toLowerCase());
}
