import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { ArchiveMember } from "./archive.ts";
import { type HankLock, LOCK_FILE, lockText, sha256Hex } from "./lock.ts";

export interface Extraction {
  readonly directory: string;
  /** False when an earlier, still intact extraction of the same bundle was used. */
  readonly fresh: boolean;
}

/**
 * Writes a verified bundle to `<cacheRoot>/<bundleHash>/`, atomically: into a temporary sibling, then
 * one rename. An existing directory is reused only when every locked member in it still hashes to
 * the lock (a run's agent never writes there, but a user might); otherwise it is replaced.
 */
export function extractBundle(
  lock: HankLock,
  members: readonly ArchiveMember[],
  cacheRoot: string,
): Extraction {
  const directory = path.join(cacheRoot, lock.bundleHash);
  if (intact(directory, lock)) return { directory, fresh: false };
  fs.mkdirSync(cacheRoot, { recursive: true });
  const temporary = path.join(
    cacheRoot,
    `.extract-${lock.bundleHash.slice(0, 12)}-${randomBytes(4).toString("hex")}`,
  );
  try {
    writeMembers(temporary, lock, members);
    fs.rmSync(directory, { recursive: true, force: true });
    fs.renameSync(temporary, directory);
  } catch (caught) {
    fs.rmSync(temporary, { recursive: true, force: true });
    // Another process extracted the same bundle first: its copy is as good as ours.
    if (intact(directory, lock)) return { directory, fresh: false };
    throw caught;
  }
  return { directory, fresh: true };
}

/**
 * Writes a verified bundle into a new temporary directory, for a look that must leave the cache as it
 * is (`--validate`); the caller removes it.
 */
export function extractScratch(lock: HankLock, members: readonly ArchiveMember[], tmpRoot: string): string {
  const directory = fs.mkdtempSync(path.join(tmpRoot, "hankweave-bundle-"));
  writeMembers(directory, lock, members);
  return directory;
}

function writeMembers(root: string, lock: HankLock, members: readonly ArchiveMember[]): void {
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(root, LOCK_FILE), lockText(lock), { mode: 0o644 });
  for (const member of members) {
    const target = path.join(root, ...member.name.split("/"));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, member.bytes, { mode: member.mode & 0o777 });
    fs.chmodSync(target, member.mode & 0o777);
  }
}

/** Every locked member present, regular, and hashing to the lock. */
export function intact(directory: string, lock: HankLock): boolean {
  try {
    return Object.entries(lock.files).every(([name, locked]) => {
      const file = path.join(directory, ...name.split("/"));
      const stats = fs.lstatSync(file);
      return stats.isFile() && sha256Hex(fs.readFileSync(file)) === locked.sha256;
    });
  } catch {
    return false;
  }
}
