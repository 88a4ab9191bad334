import type { Stats } from "node:fs";
import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { GlobSet } from "../../util/glob-set.ts";
import { isMandatoryExcluded, parentDirectories } from "../work-tree-paths.ts";
import { objectId, writeObject } from "./loose-objects.ts";
import type { SpareFiles } from "./spare-files.ts";
import type { FileEntry, FileMode, TreeModel } from "./tree-model.ts";

/** Files above this size are hashed by git, which streams them, rather than read whole into memory. */
export const LARGE_FILE_BYTES = 32 * 1024 * 1024;

export interface StageInput {
  readonly workTree: string;
  readonly gitDir: string;
  /** Files made ahead of time for the blobs written (see `SpareFiles`). */
  readonly spares?: SpareFiles | undefined;
  readonly globs: GlobSet;
  /** Changed paths inside the work tree, normalized, each matched by a glob or a directory one may reach. */
  readonly paths: readonly string[];
  /**
   * Git's answer for paths the tracked set does not hold: the files at or under them that are not
   * ignored (`.gitignore` rules, as `git ls-files --others --exclude-standard` gives them).
   */
  readonly listUnignored: (paths: readonly string[]) => Promise<string[]>;
  /** Stores large files as blobs through git, returning their ids in order. */
  readonly hashLarge: (paths: readonly string[]) => Promise<string[]>;
}

/**
 * Brings the tracked set in `model` up to date with the work tree for the reported paths, as
 * `update-index --add --remove --replace` of the same selection would: tracked files at or under a
 * path are re-read (or dropped when gone), and new files are added unless ignored. Only paths a glob
 * matches change, the mandatory excludes never do, and nothing is read through a symbolic link (a path
 * below one counts as gone). Returns how many objects were written.
 */
export async function stageChanges(model: TreeModel, input: StageInput): Promise<number> {
  const fs = new WorkTreeStats(input.workTree);
  const candidates = new Set<string>();
  const unknown: string[] = [];
  for (const path of input.paths) {
    for (const file of model.filesUnder(path)) if (input.globs.matches(file)) candidates.add(file);
    const stats = fs.lstat(path);
    if (stats?.isDirectory()) unknown.push(path);
    else if (stats !== undefined && model.file(path) === undefined && input.globs.matches(path))
      unknown.push(path);
  }
  if (unknown.length > 0) {
    for (const file of await input.listUnignored(unknown)) {
      if (!isMandatoryExcluded(file) && input.globs.matches(file)) candidates.add(file);
    }
  }
  // Sorted, so a path is settled before the paths under it (a file that became a directory, or back).
  const updates: Array<{ path: string; entry: FileEntry; body?: Buffer }> = [];
  const large: Array<{ path: string; mode: FileMode }> = [];
  for (const path of [...candidates].sort()) {
    const stats = fs.lstat(path);
    if (stats === undefined || !(stats.isFile() || stats.isSymbolicLink())) {
      model.removeFile(path);
      continue;
    }
    const mode = modeOf(stats);
    // git reads the list of large files one path per line: a name with a newline is read here instead.
    if (stats.isFile() && stats.size > LARGE_FILE_BYTES && !path.includes("\n")) {
      large.push({ path, mode });
      continue;
    }
    const body = stats.isSymbolicLink()
      ? readlinkSync(fs.abs(path), { encoding: "buffer" })
      : readFileSync(fs.abs(path));
    updates.push({ path, entry: { kind: "file", mode, id: objectId("blob", body) }, body });
  }
  const largeIds = large.length === 0 ? [] : await input.hashLarge(large.map((file) => file.path));
  large.forEach((file, index) => {
    const id = largeIds[index];
    if (id !== undefined) updates.push({ path: file.path, entry: { kind: "file", mode: file.mode, id } });
  });
  let written = 0;
  for (const { path, entry, body } of updates) {
    const old = model.file(path);
    if (old !== undefined && old.mode === entry.mode && old.id === entry.id) continue;
    if (
      body !== undefined &&
      writeObject(input.gitDir, "blob", body, { knownId: entry.id, spares: input.spares }).written
    )
      written++;
    model.setFile(path, entry);
  }
  return written;
}

/** Git's mode for a file: a link, or a regular file executable by its owner or not. */
function modeOf(stats: Stats): FileMode {
  if (stats.isSymbolicLink()) return "120000";
  return (stats.mode & 0o100) !== 0 ? "100755" : "100644";
}

/** `lstat` of work-tree paths that never looks through a symbolic link, with its parents cached. */
class WorkTreeStats {
  readonly #realDirs = new Map<string, boolean>();

  constructor(readonly workTree: string) {}

  abs(path: string): string {
    return join(this.workTree, path);
  }

  /** The path's own stats; undefined when it is missing or lies below a link or a non-directory. */
  lstat(path: string): Stats | undefined {
    for (const dir of parentDirectories(path).reverse()) if (!this.#isRealDir(dir)) return undefined;
    return lstatSync(this.abs(path), { throwIfNoEntry: false });
  }

  #isRealDir(dir: string): boolean {
    let real = this.#realDirs.get(dir);
    if (real === undefined) {
      real = lstatSync(this.abs(dir), { throwIfNoEntry: false })?.isDirectory() ?? false;
      this.#realDirs.set(dir, real);
    }
    return real;
  }
}
