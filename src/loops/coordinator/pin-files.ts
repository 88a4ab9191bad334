import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import type { LoopDefinition } from "../definition/load-definition.ts";

/**
 * Pins the files that steer a run: the definition, the body hank's directory, and every script and
 * instruction file it names. Each is copied into the run's `pinned/` directory and hashed; the run
 * executes the copies, so editing the originals (an agent, an upgrade) changes nothing for it.
 * Programs found on PATH (`npm`) are not copied; lint warns about them.
 */
export interface PinnedFiles {
  /** Maps an original absolute path to its pinned copy (or itself when it was not copied). */
  readonly pinnedPath: (path: string) => string;
  /** sha256 of each pinned file, by its path relative to the definition's directory. */
  readonly hashes: Readonly<Record<string, string>>;
}

/** Directories never copied with a body hank. */
const SKIPPED = new Set([".git", "node_modules", ".hankweave"]);

export function pinFiles(definition: LoopDefinition, pinnedDir: string): PinnedFiles {
  const mapping = new Map<string, string>();
  const hashes: Record<string, string> = {};
  const target = (original: string): string => {
    const rel = relative(definition.dir, original);
    const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
    return inside
      ? join(pinnedDir, rel)
      : join(pinnedDir, "external", `${shortHash(original)}-${basename(original)}`);
  };
  const pinFile = (original: string): void => {
    if (mapping.has(original) || !existsSync(original) || !statSync(original).isFile()) return;
    const copy = target(original);
    mkdirSync(dirname(copy), { recursive: true });
    cpSync(original, copy, { preserveTimestamps: true });
    mapping.set(original, copy);
    hashes[relative(definition.dir, original) || basename(original)] = sha256(readFileSync(copy));
  };
  pinFile(definition.file);
  for (const path of steeringFiles(definition)) pinFile(path);
  pinHank(definition.hank, target, mapping, hashes, definition.dir);
  return { pinnedPath: (path) => mapping.get(path) ?? path, hashes };
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

/** The hank directory (or the directory of a hank file) is copied whole, minus VCS and dependencies. */
function pinHank(
  hank: string,
  target: (path: string) => string,
  mapping: Map<string, string>,
  hashes: Record<string, string>,
  base: string,
): void {
  const isDir = existsSync(hank) && statSync(hank).isDirectory();
  const dir = isDir ? hank : dirname(hank);
  const copyDir = target(dir);
  cpSync(dir, copyDir, { recursive: true, filter: (source) => !SKIPPED.has(basename(source)) });
  mapping.set(hank, isDir ? copyDir : join(copyDir, basename(hank)));
  const hash = createHash("sha256");
  for (const file of listFiles(copyDir)) hash.update(relative(copyDir, file)).update(readFileSync(file));
  hashes[`${relative(base, dir) || "."}/ (body)`] = hash.digest("hex");
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

function shortHash(text: string): string {
  return sha256(text).slice(0, 8);
}
