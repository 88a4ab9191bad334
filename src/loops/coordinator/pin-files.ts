import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import type { LoopDefinition } from "../definition/load-definition.ts";
import type { Pin } from "../model/contract.ts";

/**
 * Pins the files that steer a run: the definition, the body hank's directory, and every script and
 * instruction file it names. Each is copied into the run's pinned directory and hashed; the run
 * executes the copies, so editing the originals (an agent, an upgrade) changes nothing for it, and the
 * hashes (stored with the contract) are checked again before every poll, generation, gate and hook.
 * Programs found on PATH (`npm`) are not copied; lint warns about them.
 *
 * The pinned directory lies outside the run's directory (where the body's workspace is), under a
 * name with a random part in a directory that cannot be listed, and every copy is read-only. None of
 * that stops a process with the same rights that knows the path (root ignores modes); the hash check
 * is what catches a change, and the bubblewrap sandbox is what keeps a body from seeing it at all.
 */
export interface PinnedFiles {
  /** Maps an original absolute path to its pinned copy (or itself when it was not copied). */
  readonly pinnedPath: (path: string) => string;
  /** Each pinned file (or the body's tree) with its sha256. */
  readonly pins: readonly Pin[];
}

/** Directories never copied with a body hank. */
const SKIPPED = new Set([".git", "node_modules", ".hankweave"]);

/** `<home>/pinned/<run id>-<random>`: where a run's contract is pinned. */
export function pinnedDirFor(home: string, runId: string): string {
  const parent = join(home, "pinned");
  mkdirSync(parent, { recursive: true });
  // Traversable, not listable: a process that is not root cannot find a run's pinned directory by name.
  chmodSync(parent, 0o711);
  return join(parent, `${runId}-${randomBytes(8).toString("hex")}`);
}

export function pinFiles(definition: LoopDefinition, pinnedDir: string): PinnedFiles {
  const mapping = new Map<string, string>();
  const pins: Pin[] = [];
  const label = (original: string) => relative(definition.dir, original) || basename(original);
  const target = (original: string): string => {
    const rel = relative(definition.dir, original);
    const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
    return inside
      ? join(pinnedDir, rel)
      : join(pinnedDir, "external", `${sha256(original).slice(0, 8)}-${basename(original)}`);
  };
  const pinFile = (original: string): void => {
    if (mapping.has(original) || !existsSync(original) || !statSync(original).isFile()) return;
    const copy = target(original);
    mkdirSync(dirname(copy), { recursive: true });
    cpSync(original, copy, { preserveTimestamps: true });
    mapping.set(original, copy);
    pins.push({ label: label(original), path: copy, kind: "file", sha256: sha256(readFileSync(copy)) });
  };
  pinFile(definition.file);
  for (const path of steeringFiles(definition)) pinFile(path);
  const hank = definition.hank;
  const isDir = existsSync(hank) && statSync(hank).isDirectory();
  const hankDir = isDir ? hank : dirname(hank);
  const copyDir = target(hankDir);
  cpSync(hankDir, copyDir, { recursive: true, filter: (source) => !SKIPPED.has(basename(source)) });
  mapping.set(hank, isDir ? copyDir : join(copyDir, basename(hank)));
  pins.push({ label: `${label(hankDir)}/ (body)`, path: copyDir, kind: "tree", sha256: treeHash(copyDir) });
  makeReadOnly(pinnedDir);
  return { pinnedPath: (path) => mapping.get(path) ?? path, pins };
}

/** A pinned file whose content is no longer what was pinned: `found` is `missing` for a removed one. */
export interface Tamper {
  readonly label: string;
  readonly path: string;
  readonly expected: string;
  readonly found: string;
}

/** Rehashes every pin; the first that differs, or undefined when all still match. */
export function verifyPins(pins: readonly Pin[]): Tamper | undefined {
  for (const pin of pins) {
    const found = currentHash(pin);
    if (found !== pin.sha256) return { label: pin.label, path: pin.path, expected: pin.sha256, found };
  }
  return undefined;
}

function currentHash(pin: Pin): string {
  if (!existsSync(pin.path)) return "missing";
  const isDir = lstatSync(pin.path).isDirectory();
  if (pin.kind === "tree") return isDir ? treeHash(pin.path) : "not a directory";
  return isDir ? "a directory" : sha256(readFileSync(pin.path));
}

/** Removes a pinned directory (its read-only modes lifted first, so a non-root owner can delete it). */
export function removePinned(pinnedDir: string): void {
  if (!existsSync(pinnedDir)) return;
  const writable = (dir: string): void => {
    chmodSync(dir, 0o755);
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) writable(join(dir, entry.name));
  };
  writable(pinnedDir);
  rmSync(pinnedDir, { recursive: true, force: true });
}

function steeringFiles(d: LoopDefinition): string[] {
  const programs = [
    d.escalation?.[0],
    d.hooks?.generation_pre?.[0],
    d.hooks?.gate_pre?.[0],
    d.fan_out?.items[0],
    d.watch?.source[0],
    ...d.gates.map((g) =>
      g.kind === "command" ? g.run[0] : g.kind === "judge" ? g.instructions : undefined,
    ),
  ];
  return programs.filter((p): p is string => p !== undefined && isAbsolute(p));
}

/** Files keep their execute bits, lose every write bit; directories become 0555. */
function makeReadOnly(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) makeReadOnly(full);
    else if (entry.isFile()) chmodSync(full, statSync(full).mode & 0o555);
  }
  chmodSync(dir, 0o555);
}

/** One hash over a directory's files: each relative path and its content, in a stable order. */
function treeHash(dir: string): string {
  const hash = createHash("sha256");
  for (const file of listFiles(dir)) hash.update(relative(dir, file)).update(readFileSync(file));
  return hash.digest("hex");
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

export function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}
