/**
 * Filesystem faults as one-line messages a user can act on: what could not be done to which path, why
 * (in words and as the error code), and the fix. Anything that is not such a fault (a bug, an error
 * without a code) gives undefined, so callers rethrow it unchanged. Pure.
 */

interface FaultKind {
  readonly reason: string;
  readonly fix: string;
}

const RESUME = "then run the same command again: the execution resumes where it stopped";

const FAULTS: Readonly<Record<string, FaultKind>> = {
  ENOSPC: { reason: "no space left on the device", fix: `Free space on the disk that holds it, ${RESUME}.` },
  EDQUOT: { reason: "the disk quota is exhausted", fix: `Free space or raise the quota, ${RESUME}.` },
  EACCES: {
    reason: "permission denied",
    fix: `Give your user write access to it (or put executions elsewhere with HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR), ${RESUME}.`,
  },
  EPERM: {
    reason: "the operation is not permitted (an immutable or protected file?)",
    fix: `Lift the protection (e.g. chattr -i) or put executions elsewhere with HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR, ${RESUME}.`,
  },
  EROFS: {
    reason: "the file system is read-only",
    fix: `Put executions on a writable disk with HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR (or remount it writable), ${RESUME}.`,
  },
  EISDIR: {
    reason: "a directory is where a file was expected",
    fix: `Move that directory out of the way (hankweave did not make it), ${RESUME}.`,
  },
  ENOTDIR: {
    reason: "a file is where a directory was expected",
    fix: `Move that file out of the way (hankweave did not make it), ${RESUME}.`,
  },
  EMFILE: { reason: "too many open files", fix: `Raise the limit (ulimit -n), ${RESUME}.` },
  ENFILE: { reason: "the system has too many open files", fix: `Close other programs, ${RESUME}.` },
  EIO: { reason: "an input/output error from the disk", fix: `Check the disk, ${RESUME}.` },
  ENAMETOOLONG: {
    reason: "a name in the path is longer than the file system allows",
    fix: "Shorten it (an id the name is made from: a loop's id, an execution's name), then run again.",
  },
  SQLITE_NOTADB: {
    reason: "the file is not a SQLite database",
    fix: "Point --db at the loops store, or move the file aside (an empty store is made in its place), then run again.",
  },
  SQLITE_CORRUPT: {
    reason: "the SQLite database is damaged",
    fix: "Restore it from a backup, or move it aside (an empty store is made in its place), then run again.",
  },
};

const VERBS: Readonly<Record<string, string>> = {
  open: "open",
  read: "read",
  write: "write",
  mkdir: "create the directory",
  rename: "replace",
  unlink: "remove",
  rmdir: "remove the directory",
  link: "create",
  symlink: "create the link",
  fsync: "save",
  fdatasync: "save",
  ftruncate: "repair",
  copyfile: "copy to",
  scandir: "list",
  lstat: "inspect",
  stat: "inspect",
};

/** The code, syscall and paths of a Node system error; undefined for anything else. */
export function systemErrorOf(
  error: unknown,
): { code: string; syscall?: string; path?: string; dest?: string } | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  const { code, syscall, path, dest } = error as Record<string, unknown>;
  if (typeof code !== "string") return undefined;
  return {
    code,
    ...(typeof syscall === "string" && { syscall }),
    ...(typeof path === "string" && { path }),
    ...(typeof dest === "string" && { dest }),
  };
}

/**
 * `Cannot write /x/events.jsonl: no space left on the device (ENOSPC). Free space on ...`. `fallbackPath`
 * names the file when the error does not (a write to an open descriptor carries no path).
 */
export function fsFaultMessage(error: unknown, fallbackPath?: string): string | undefined {
  const system = systemErrorOf(error);
  const kind = system === undefined ? undefined : FAULTS[system.code];
  if (system === undefined || kind === undefined) return undefined;
  const path = system.syscall === "rename" && system.dest !== undefined ? system.dest : system.path;
  const where = path ?? fallbackPath;
  const verb = VERBS[system.syscall ?? ""] ?? "use";
  const what = where === undefined ? "Cannot write to disk" : `Cannot ${verb} ${where}`;
  return `${what}: ${kind.reason} (${system.code}). ${kind.fix}`;
}
