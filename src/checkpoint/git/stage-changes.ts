import type { Stats } from "node:fs";
import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { GlobSet } from "../../util/glob-set.ts";
import { isMandatoryExcluded, parentDirectories } from "../work-tree-paths.ts";
import { type ObjectSink, objectId } from "./loose-objects.ts";
import type { FileEntry, FileMode, TreeModel } from "./tree-model.ts";

/** Files above this size are hashed by git, which streams them, rather than read whole into memory. */
export const LARGE_FILE_BYTES = 32 * 1024 * 1024;

/** The work tree's files, read into `model`: what a commit needs besides the candidates. */
export interface ReadInput {
  readonly workTree: string;
  readonly sink: ObjectSink;
  /** Stores large files as blobs through git, returning their ids in order. */
  readonly hashLarge: (paths: readonly string[]) => Promise<string[]>;
}

export interface StageInput extends ReadInput {
  readonly globs: GlobSet;
  /** Changed paths inside the work tree, normalized, each matched by a glob or a directory one may reach. */
  readonly paths: readonly string[];
  /**
   * Git's answer for paths the tracked set does not hold: the files at or under them that are not
   * ignored (`.gitignore` rules, as `git ls-files --others --exclude-standard` gives them).
   */
  readonly listUnignored: (paths: readonly string[]) => Promise<string[]>;
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
  return readCandidates(model, [...candidates], input, fs);
}

/**
 * Records each candidate file as the work tree holds it: re-read and stored through the sink when its
 * content or mode changed, dropped when it is gone or no longer a file or link. Candidates are files
 * the caller selected (globs, ignore rules, mandatory excludes already applied). Returns how many
 * objects the sink stored.
 */
export async function readCandidates(
  model: TreeModel,
  candidates: readonly string[],
  input: ReadInput,
  fs = new WorkTreeStats(input.workTree),
): Promise<number> {
  // Sorted, so a path is settled before the paths under it (a file that became a directory, or back).
  // Each body is stored as it is read: a snapshot of a large workspace never holds it all in memory.
  let written = 0;
  const record = (path: string, entry: FileEntry, body?: Buffer): void => {
    const old = model.file(path);
    if (old !== undefined && old.mode === entry.mode && old.id === entry.id) return;
    if (body !== undefined && input.sink.put("blob", body, entry.id)) written++;
    model.setFile(path, entry);
  };
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
    record(path, { kind: "file", mode, id: objectId("blob", body) }, body);
  }
  const largeIds = large.length === 0 ? [] : await input.hashLarge(large.map((file) => file.path));
  large.forEach((file, index) => {
    const id = largeIds[index];
    if (id !== undefined) record(file.path, { kind: "file", mode: file.mode, id });
  });
  return written;
}

/** Git's mode for a file: a link, or a regular file executable by its owner or not. */
function modeOf(stats: Stats): FileMode {
  if (stats.isSymbolicLink()) return "120000";
  return (stats.mode & 0o100) !== 0 ? "100755" : "100644";
}

/** `lstat` of work-tree paths that never looks through a symbolic link, with its parents cached. */
export class WorkTreeStats {
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
