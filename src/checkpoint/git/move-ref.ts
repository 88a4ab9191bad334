import {
  closeSync,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { CheckpointError } from "../checkpoint-error.ts";
import type { OpenRef } from "./open-ref.ts";

/**
 * Moves a branch from `from` to `to` from this process, inside git's own protocol: `<ref>.lock` is taken
 * exclusively (so no git process updates the ref meanwhile), the ref is checked to still name `from`,
 * then written and the lock removed. Called only after every object the new commit needs is written, so
 * a kill at any instant leaves the ref on a complete commit: the old one or the new one.
 *
 * The new id is written over the old one in place (ids have a fixed length, and a 41-byte write is not
 * torn by a kill), not renamed over it as git does: on ext4 a rename that replaces a file flushes the
 * new file's data first, which cost about 4 ms per checkpoint on a busy disk. A ref that is not a loose
 * file yet (new, or only in `packed-refs`) is written to a temporary file beside the store's files and
 * renamed into place while the lock is held.
 *
 * The lock is a marker that holds no content, so it is taken by hard-linking one empty file of the
 * store (`LOCK_INODE`) to the lock's name: `link` fails when the name exists, exactly as git's exclusive
 * create does, but allocates no inode, which on this project's CI disk costs 0.3-0.6 ms against 0.02 ms
 * for the link once other files are being created. Where hard links are not supported the lock is
 * created as git creates it.
 *
 * `from` undefined creates the ref: it must not exist yet (loose or packed). A ref that moved under us
 * rejects with `ref-moved`; a lock held by someone else (or left by a crash) with `ref-locked`.
 * `open`, the ref's file kept open by the caller between moves (`OpenRef`), writes through it when the
 * file holds `from`; anything else takes the path above, which reads the ref afresh.
 */
export function moveRef(
  gitDir: string,
  ref: string,
  to: string,
  from: string | undefined,
  open?: OpenRef,
): void {
  const path = join(gitDir, ref);
  const lock = `${path}.lock`;
  takeMarkerLock(gitDir, ref, lock);
  try {
    if (open !== undefined && from !== undefined && open.moveInPlace(to, from)) return;
    const current = readRef(gitDir, ref);
    if (current !== from) {
      throw new CheckpointError(
        "ref-moved",
        `Checkpoint branch ${ref.replace(/^refs\/heads\//, "")} moved under this checkpointer: it names ${current ?? "nothing"}, expected ${from ?? "nothing"}.`,
        { args: ["update-ref", ref, to, from ?? ""] },
      );
    }
    const line = `${to}\n`;
    if (!writeInPlace(path, line)) replaceWhole(gitDir, path, line);
  } finally {
    unlinkQuietly(lock);
  }
}

/** The empty file of the store whose hard links are ref locks (see `moveRef`); git ignores it. */
export const LOCK_INODE = "hankweave-lock-inode";

/** Takes `lock` for `ref` without writing to it: a hard link to `LOCK_INODE`, or a created file. */
function takeMarkerLock(gitDir: string, ref: string, lock: string): void {
  const inode = join(gitDir, LOCK_INODE);
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      linkSync(inode, lock);
      return;
    } catch (error) {
      const code = codeOf(error);
      if (code === "EEXIST") throw lockError(ref, lock, error);
      if (code !== "ENOENT" || !prepareLink(inode, lock)) break;
    }
  }
  closeSync(takeLock(ref, lock));
}

/**
 * After a link found something missing: creates the lock's directory (a new branch's) and the inode
 * file (a new store's). False when the inode cannot be a file here (the caller creates the lock).
 */
function prepareLink(inode: string, lock: string): boolean {
  mkdirSync(dirname(lock), { recursive: true });
  try {
    closeSync(openSync(inode, "a"));
    return true;
  } catch {
    return false;
  }
}

/** Writes `line` to a temporary file of the store and renames it over (or into) `path`. */
function replaceWhole(gitDir: string, path: string, line: string): void {
  const temp = join(gitDir, `hankweave-ref-${process.pid}.tmp`);
  writeFileSync(temp, line);
  try {
    renameSync(temp, path);
  } catch (error) {
    unlinkQuietly(temp);
    throw error;
  }
}

/**
 * Points HEAD at `ref` (`git symbolic-ref HEAD <ref>`), under `HEAD.lock` as git does: the new content
 * is written to the lock and renamed over HEAD, so a kill leaves the old HEAD or the new one.
 */
export function pointHead(gitDir: string, ref: string): void {
  replaceUnderLock(gitDir, "HEAD", `ref: ${ref}\n`);
}

/** The commit HEAD names: through the branch it points at, or its own id when detached. */
export function readHead(gitDir: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(gitDir, "HEAD"), "utf8").trim();
  } catch (error) {
    if (codeOf(error) === "ENOENT") return undefined;
    throw error;
  }
  if (text.startsWith("ref: ")) return readRef(gitDir, text.slice("ref: ".length).trim());
  return /^[0-9a-f]{40}$/.test(text) ? text : undefined;
}

/**
 * Replaces a file of the git dir (`name`: `HEAD`, `config`) whole, inside git's lock protocol: the
 * content goes to `<name>.lock`, taken exclusively, which is then renamed over the file.
 */
export function replaceUnderLock(gitDir: string, name: string, content: string): void {
  const path = join(gitDir, name);
  const lock = `${path}.lock`;
  const fd = takeLock(name, lock);
  let renamed = false;
  try {
    writeSync(fd, content);
    closeSync(fd);
    renameSync(lock, path);
    renamed = true;
  } finally {
    if (!renamed) {
      closeQuietly(fd);
      unlinkQuietly(lock);
    }
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Closed already (the write succeeded and the rename failed).
  }
}

/** Overwrites a loose ref file holding exactly one id and a newline; false when there is none to overwrite. */
function writeInPlace(path: string, line: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "r+");
  } catch (error) {
    if (codeOf(error) === "ENOENT") return false;
    throw error;
  }
  try {
    if (fstatSync(fd).size !== Buffer.byteLength(line)) return false;
    writeSync(fd, line, 0);
    return true;
  } finally {
    closeSync(fd);
  }
}

function takeLock(ref: string, lock: string): number {
  try {
    return openSync(lock, "wx");
  } catch (error) {
    if (codeOf(error) !== "ENOENT") throw lockError(ref, lock, error);
  }
  mkdirSync(dirname(lock), { recursive: true });
  try {
    return openSync(lock, "wx");
  } catch (error) {
    throw lockError(ref, lock, error);
  }
}

/** Whether any run line (`refs/heads/run/*`) exists, loose or in `packed-refs`. */
export function hasRunLines(gitDir: string): boolean {
  try {
    if (readdirSync(join(gitDir, "refs", "heads", "run")).length > 0) return true;
  } catch (error) {
    if (codeOf(error) !== "ENOENT") throw error;
  }
  try {
    return readFileSync(join(gitDir, "packed-refs"), "utf8").includes(" refs/heads/run/");
  } catch (error) {
    if (codeOf(error) === "ENOENT") return false;
    throw error;
  }
}

/** The commit a branch names: its loose file, else its line in `packed-refs`; undefined when neither. */
export function readRef(gitDir: string, ref: string): string | undefined {
  try {
    const text = readFileSync(join(gitDir, ref), "utf8").trim();
    return /^[0-9a-f]{40}$/.test(text) ? text : undefined;
  } catch (error) {
    if (codeOf(error) !== "ENOENT" && codeOf(error) !== "ENOTDIR") throw error;
  }
  let packed: string;
  try {
    packed = readFileSync(join(gitDir, "packed-refs"), "utf8");
  } catch {
    return undefined;
  }
  for (const line of packed.split("\n")) {
    if (line.endsWith(` ${ref}`) && /^[0-9a-f]{40} /.test(line)) return line.slice(0, 40);
  }
  return undefined;
}

function lockError(ref: string, lock: string, error: unknown): CheckpointError {
  const why =
    codeOf(error) === "EEXIST"
      ? "another git process is updating it, or a crash left the lock behind (remove it if no hankweave or git process runs on this execution)"
      : `the lock could not be created (${codeOf(error) ?? String(error)})`;
  return new CheckpointError("ref-locked", `Checkpoint branch ${ref} is locked by ${lock}: ${why}.`, {
    args: ["update-ref", ref],
  });
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone; the original error (if any) is the one that matters.
  }
}

function codeOf(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}
