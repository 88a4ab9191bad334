import { constants } from "node:fs";
import { copyFile, lstat, readlink, rename, symlink, unlink } from "node:fs/promises";
import { join } from "node:path";
import { basename, dirname } from "node:path/posix";
import { conflictName, MAX_CONFLICT_RENAMES } from "./conflict-name.ts";
import { fsErrorCode, fsErrorText } from "./fs-error-text.ts";
import { isInside, realDirectoryProblem } from "./real-directory.ts";
import type { WorkspaceEntryKind } from "./workspace-scan.ts";

/** What to do when the destination name is taken: pick `name_<n>_<ts>.ext`, replace it, or give up. */
export type ConflictPolicy = "rename" | "overwrite" | "fail";

export interface PlaceRequest {
  /** Absolute path of the file or link to copy or move. */
  readonly source: string;
  readonly kind: WorkspaceEntryKind;
  /** Absolute root every destination must stay inside. */
  readonly destRoot: string;
  /** Destination relative to `destRoot`, `/`-separated, no `..`. */
  readonly destPath: string;
  /** `copy` leaves the source; `move` renames it (copy and unlink across filesystems). */
  readonly mode: "copy" | "move";
  readonly onConflict: ConflictPolicy;
  /** The timestamp of renamed names. */
  readonly unixSeconds: number;
}

export type PlaceResult =
  | { readonly ok: true /** Where it went, relative to destRoot. */; readonly to: string }
  | { readonly ok: false; readonly error: string };

/**
 * Copies or moves one file or symbolic link (a link stays a link, its target untouched) to
 * `destRoot/destPath`, creating directories on the way. Never writes through a symbolic link on the
 * destination side: links in the directory chain are refused, and an overwritten link is replaced,
 * not followed. Every failure is a value.
 */
export async function placeEntry(request: PlaceRequest): Promise<PlaceResult> {
  const target = join(request.destRoot, request.destPath);
  if (request.destPath.split("/").includes("..") || !isInside(request.destRoot, target)) {
    return { ok: false, error: `"${request.destPath}" would leave ${request.destRoot}` };
  }
  const parentProblem = await realDirectoryProblem(request.destRoot, dirname(request.destPath), true);
  if (parentProblem !== null) return { ok: false, error: parentProblem };
  try {
    const free = await freeName(request);
    if (free.ok) await transfer(request.source, join(request.destRoot, free.to), request.kind, request.mode);
    return free;
  } catch (error) {
    return { ok: false, error: fsErrorText(error) };
  }
}

async function freeName(request: PlaceRequest): Promise<PlaceResult> {
  const { destPath } = request;
  const existing = await entryAt(join(request.destRoot, destPath));
  if (existing === "none") return { ok: true, to: destPath };
  if (request.onConflict === "fail") return { ok: false, error: `"${destPath}" already exists` };
  if (request.onConflict === "overwrite") {
    if (existing === "directory") return { ok: false, error: `"${destPath}" exists and is a directory` };
    await unlink(join(request.destRoot, destPath));
    return { ok: true, to: destPath };
  }
  const dir = dirname(destPath);
  for (let counter = 1; counter <= MAX_CONFLICT_RENAMES; counter++) {
    const name = conflictName(basename(destPath), counter, request.unixSeconds);
    const candidate = dir === "." ? name : `${dir}/${name}`;
    if ((await entryAt(join(request.destRoot, candidate))) === "none") return { ok: true, to: candidate };
  }
  return { ok: false, error: `"${destPath}" and its ${MAX_CONFLICT_RENAMES} renamed variants already exist` };
}

async function entryAt(path: string): Promise<"none" | "directory" | "other"> {
  try {
    return (await lstat(path)).isDirectory() ? "directory" : "other";
  } catch (error) {
    if (fsErrorCode(error) === "ENOENT") return "none";
    throw error;
  }
}

async function transfer(
  source: string,
  target: string,
  kind: WorkspaceEntryKind,
  mode: "copy" | "move",
): Promise<void> {
  if (mode === "move") {
    try {
      await rename(source, target);
      return;
    } catch (error) {
      if (fsErrorCode(error) !== "EXDEV") throw error;
    }
  }
  if (kind === "symlink") await symlink(await readlink(source), target);
  else await copyFile(source, target, constants.COPYFILE_EXCL);
  if (mode === "move") await unlink(source);
}
