import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { dirname } from "node:path/posix";
import { checkWorkspaceGlob } from "../../hank/refs.ts";
import { DATA_LINK_NAME, type ExecutionLayout, STATE_DIR_NAME } from "../execution-layout.ts";
import {
  fsErrorCode,
  fsErrorText,
  placeEntry,
  RIG_ARCHIVE_NAME,
  realDirectoryProblem,
} from "../outputs/index.ts";
import type { ArchiveManifestEntry } from "./archive-manifest.ts";
import { entryDigest } from "./entry-digest.ts";

/**
 * Moves one archived entry from `to` (execution-relative) back to `from` (agentRoot-relative).
 * Returns null, or why it was not restored; nothing moves unless every check passed.
 */
export async function restoreEntry(
  entry: ArchiveManifestEntry,
  layout: ExecutionLayout,
): Promise<string | null> {
  const pathProblem = fromProblem(entry.from) ?? toProblem(entry.to);
  if (pathProblem !== null) return pathProblem;
  const reach = await realDirectoryProblem(layout.executionDir, dirname(entry.to), false);
  if (reach !== null) return `the archived copy ${entry.to} cannot be reached: ${reach}`;
  const source = join(layout.executionDir, entry.to);
  const integrity = await integrityProblem(source, entry);
  if (integrity !== null) return integrity;
  const placed = await placeEntry({
    source,
    kind: entry.kind,
    destRoot: layout.agentRoot,
    destPath: entry.from,
    mode: "move",
    onConflict: "fail",
    unixSeconds: 0,
  });
  return placed.ok
    ? null
    : `cannot put it back in agentRoot (${placed.error}); the archived copy stays at ${entry.to}`;
}

/** `from` must be a plain agentRoot-relative path outside the state dir, the data link and rigArchive. */
function fromProblem(from: string): string | null {
  const refuse = (reason: string): string => `refusing to restore to "${from}": ${reason}`;
  const check = checkWorkspaceGlob(from);
  if (!check.ok) return refuse(check.message);
  if (check.normalized !== from || from === ".")
    return refuse("it is not a normalized path inside agentRoot");
  const parts = from.split("/");
  if (parts.some((part) => part.toLowerCase() === STATE_DIR_NAME))
    return refuse("it names hankweave's state");
  if (parts[0] === DATA_LINK_NAME) return refuse("it is inside the read-only data link");
  if (parts[0] === RIG_ARCHIVE_NAME) return refuse("it is inside rigArchive");
  return null;
}

/** `to` must name an entry below `rigArchive/`, away from the state dir. */
function toProblem(to: string): string | null {
  const refuse = (reason: string): string => `refusing to restore from "${to}": ${reason}`;
  const check = checkWorkspaceGlob(to);
  if (!check.ok) return refuse(check.message);
  const parts = to.split("/");
  if (check.normalized !== to || parts[0] !== RIG_ARCHIVE_NAME || parts.length < 2) {
    return refuse(`it is not a path inside ${RIG_ARCHIVE_NAME}/`);
  }
  if (parts.some((part) => part.toLowerCase() === STATE_DIR_NAME))
    return refuse("it names hankweave's state");
  return null;
}

/** The archived copy must still be the same kind of entry with the recorded size and SHA-256. */
async function integrityProblem(source: string, entry: ArchiveManifestEntry): Promise<string | null> {
  try {
    const stats = await lstat(source);
    const kind = stats.isSymbolicLink() ? "symlink" : stats.isFile() ? "file" : "other";
    if (kind !== entry.kind) return `the archived copy ${entry.to} is no longer a ${describe(entry.kind)}`;
    const digest = await entryDigest(source, entry.kind);
    if (digest.sha256 !== entry.sha256 || digest.sizeBytes !== entry.sizeBytes) {
      return `the archived copy ${entry.to} changed since it was archived (SHA-256 differs)`;
    }
    return null;
  } catch (error) {
    if (fsErrorCode(error) === "ENOENT") return `the archived copy ${entry.to} is missing`;
    return `the archived copy ${entry.to} cannot be read: ${fsErrorText(error)}`;
  }
}

function describe(kind: ArchiveManifestEntry["kind"]): string {
  return kind === "file" ? "regular file" : "symbolic link";
}
