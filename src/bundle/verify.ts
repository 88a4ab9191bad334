import { type ArchiveMember, type ReadMember, readArchive } from "./archive.ts";
import { bundleHashOf, compareVersions, HankLock, LOCK_FILE, modeBits, sha256Hex } from "./lock.ts";
import { readLimitProblem } from "./read-limits.ts";

export type VerifiedBundle =
  | { readonly ok: true; readonly lock: HankLock; readonly members: readonly ArchiveMember[] }
  | { readonly ok: false; readonly message: string };

const REPACK =
  "Re-create it with `hankweave pack` from the hank's source, or fetch it again from where it came.";

/**
 * Checks a bundle before anything of it touches the disk: what it decompresses to (within the read
 * limits, read from its headers before it is decompressed), `hank.lock` first, the exact member set,
 * every member's sha256 and mode, the `bundleHash`, safe relative paths, and `runtime.min` against
 * this version. `shown` names the bundle in messages.
 */
export async function verifyBundle(bytes: Buffer, shown: string, version: string): Promise<VerifiedBundle> {
  const tooLarge = readLimitProblem(bytes);
  if (tooLarge !== undefined) return fail(`${shown}: ${tooLarge}; nothing was decompressed. ${REPACK}`);
  let entries: ReadMember[];
  try {
    entries = await readArchive(bytes);
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    return fail(`${shown}: not a hank bundle (zstd-compressed tar): ${reason}. ${REPACK}`);
  }
  const [first, ...rest] = entries;
  if (first?.name !== LOCK_FILE || first.type !== "file") {
    return fail(
      `${shown}: ${LOCK_FILE} is not the first member, so the bundle cannot be verified. ${REPACK}`,
    );
  }
  const lock = parseLock(first.bytes, shown);
  if (typeof lock === "string") return fail(lock);
  const members = checkMembers(rest, lock, shown);
  if (typeof members === "string") return fail(members);
  if (bundleHashOf(lock.files, lock.runtime) !== lock.bundleHash) {
    return fail(
      `${shown}: ${LOCK_FILE}: bundleHash does not match its files and runtime (edited lock). ${REPACK}`,
    );
  }
  if (compareVersions(lock.runtime.min, version) > 0) {
    return fail(
      `${shown}: bundle requires hankweave ≥ ${lock.runtime.min}, this is ${version}. Upgrade hankweave.`,
    );
  }
  return { ok: true, lock, members };
}

function parseLock(bytes: Uint8Array, shown: string): HankLock | string {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch {
    return `${shown}: ${LOCK_FILE} is not valid JSON. ${REPACK}`;
  }
  const parsed = HankLock.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const at = issue === undefined ? "$" : ["$", ...issue.path.map(String)].join(".");
  return `${shown}: ${LOCK_FILE} at ${at}: ${issue?.message ?? "invalid"}. ${REPACK}`;
}

function checkMembers(
  entries: readonly ReadMember[],
  lock: HankLock,
  shown: string,
): ArchiveMember[] | string {
  const seen = new Set<string>();
  for (const entry of entries) {
    const problem = memberProblem(entry, lock, seen);
    if (problem !== undefined)
      return `Error: ${shown}: ${entry.name}: does not match hank.lock (${problem}). ${REPACK}`;
    seen.add(entry.name);
  }
  const missing = Object.keys(lock.files).find((name) => !seen.has(name));
  if (missing !== undefined) {
    return `Error: ${shown}: ${missing}: does not match hank.lock (listed in the lock, missing from the bundle). ${REPACK}`;
  }
  return [...entries];
}

function memberProblem(entry: ReadMember, lock: HankLock, seen: ReadonlySet<string>): string | undefined {
  if (entry.type !== "file") return `a ${entry.type} entry; bundles hold regular files only`;
  if (!safeName(entry.name)) return "an unsafe path";
  if (seen.has(entry.name)) return "a second copy of the member";
  const locked = lock.files[entry.name];
  if (locked === undefined) return "not listed in the lock";
  if ((entry.mode & 0o777) !== modeBits(locked.mode))
    return `mode ${(entry.mode & 0o777).toString(8)}, locked ${locked.mode}`;
  const digest = sha256Hex(entry.bytes);
  if (digest !== locked.sha256) return `sha256 ${digest}, locked ${locked.sha256}`;
  return undefined;
}

/** A relative `/`-separated path with no empty, `.` or `..` segment, no backslash and no NUL. */
export function safeName(name: string): boolean {
  if (name === "" || name.startsWith("/") || name.includes("\\") || name.includes("\0")) return false;
  return name.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

function fail(message: string): VerifiedBundle {
  return { ok: false, message: message.startsWith("Error: ") ? message : `Error: ${message}` };
}
