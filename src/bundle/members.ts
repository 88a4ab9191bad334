import fs from "node:fs";
import path from "node:path";
import { byteOrder } from "./canonical-json.ts";
import { LOCK_FILE } from "./lock.ts";

/** What `pack` leaves out of every bundle: version control, installs, run state, other bundles. */
export const IGNORE_DEFAULTS: readonly string[] = [
  ".git/",
  "node_modules/",
  ".hankweave/",
  ".DS_Store",
  "*.hank",
  "*.tar.zst",
  LOCK_FILE,
];

/** The reference's limits: a bundle is a hank, not a data set. */
export const LIMITS = { files: 50_000, fileBytes: 1024 ** 3, totalBytes: 2 * 1024 ** 3 } as const;

export interface Member {
  /** Path inside the bundle, `/`-separated, relative to the hank directory. */
  readonly name: string;
  readonly absolute: string;
  readonly executable: boolean;
  readonly size: number;
}

export interface MemberScan {
  readonly members: readonly Member[];
  /** Problems that stop a pack: each names the path and the fix. */
  readonly errors: readonly string[];
}

/** Every regular file under `hankDir` that the defaults do not ignore, in bytewise order. */
export function scanMembers(hankDir: string): MemberScan {
  const members: Member[] = [];
  const errors: string[] = [];
  walk(hankDir, "", members, errors);
  members.sort((a, b) => byteOrder(a.name, b.name));
  const total = members.reduce((sum, member) => sum + member.size, 0);
  if (members.length > LIMITS.files) {
    errors.push(`${hankDir}: ${members.length} files, more than the ${LIMITS.files} a bundle may hold.`);
  }
  if (total > LIMITS.totalBytes) {
    errors.push(`${hankDir}: ${total} bytes in all, more than a bundle's 2 GiB; move data out of the hank.`);
  }
  return { members, errors };
}

function walk(root: string, prefix: string, members: Member[], errors: string[]): void {
  const directory = path.join(root, prefix);
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const name = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (ignored(name, entry.isDirectory())) continue;
    const absolute = path.join(root, name);
    if (entry.isDirectory()) {
      walk(root, name, members, errors);
    } else if (entry.isFile()) {
      const stats = fs.statSync(absolute);
      if (stats.size > LIMITS.fileBytes) errors.push(`${name}: larger than 1 GiB; move it out of the hank.`);
      members.push({ name, absolute, executable: (stats.mode & 0o111) !== 0, size: stats.size });
    } else {
      const what = entry.isSymbolicLink() ? "a symbolic link" : "not a regular file";
      errors.push(`${name}: ${what}; a bundle holds regular files only. Replace it with a copy of the file.`);
    }
  }
}

function ignored(name: string, directory: boolean): boolean {
  const base = name.slice(name.lastIndexOf("/") + 1);
  if (directory) return IGNORE_DEFAULTS.includes(`${base}/`);
  if (name === LOCK_FILE || base === ".DS_Store") return true;
  return base.endsWith(".hank") || base.endsWith(".tar.zst");
}
