import { randomBytes } from "node:crypto";
import { openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { writeAll } from "../../util/write-all.ts";
import { runBranch } from "../checkpointer.ts";
import { type ObjectType, objectId } from "./loose-objects.ts";
import { moveRef, readRef } from "./move-ref.ts";
import { RUN_PACK_DIR } from "./run-pack.ts";
import { crc32, type LocatedEntry, sealPack } from "./write-pack.ts";

const TYPE_NAMES: Readonly<Record<number, ObjectType>> = { 1: "commit", 2: "tree", 3: "blob" };

interface ParsedCommit {
  readonly id: string;
  readonly parent: string | undefined;
}

/**
 * Seals the run packs a killed (or lock-losing) writer left unsealed (see `RunPack`) and moves each
 * run's branch onto the newest checkpoint the pack holds that descends from it, so every checkpoint
 * the writer acknowledged (and journaled) is readable by git again. A torn last entry (a kill inside a
 * write) is left out. The file is never changed in place: its complete entries are copied into a new
 * pack, sealed into the store, the branch moved, and only then the file removed, so a kill at any
 * point leaves it to the next recovery, and a writer still holding it (one that lost the lock) writes
 * only into a file the store no longer names (`RunPack` notices and stops). Only a holder of the
 * execution's lock calls it, before it writes the store. Returns the run ids recovered.
 */
export function recoverRunPacks(gitDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(gitDir, RUN_PACK_DIR)).filter((name) => name.endsWith(".pack"));
  } catch {
    return [];
  }
  return names.map((name) => {
    const runId = name.slice(0, -".pack".length);
    recoverOne(gitDir, runId, join(gitDir, RUN_PACK_DIR, name));
    return runId;
  });
}

function recoverOne(gitDir: string, runId: string, path: string): void {
  const bytes = readFileSync(path);
  const { located, commits, end } = parseEntries(bytes);
  if (located.length > 0) {
    const packDir = join(gitDir, "objects", "pack");
    const copy = join(packDir, `tmp_pack_${randomBytes(6).toString("hex")}`);
    const fd = openSync(copy, "wx+", 0o444);
    writeAll(fd, bytes.subarray(0, end));
    sealPack({ fd, path: copy, size: end }, located, packDir);
    const ref = `refs/heads/${runBranch(runId)}`;
    const base = readRef(gitDir, ref);
    let tip = base;
    for (const commit of commits) if (commit.parent === tip) tip = commit.id;
    if (tip !== undefined && tip !== base) moveRef(gitDir, ref, tip, base);
  }
  rmSync(path, { force: true });
}

/** The complete entries of a pack's bytes after its 12-byte header, up to the first torn one. */
function parseEntries(bytes: Buffer): { located: LocatedEntry[]; commits: ParsedCommit[]; end: number } {
  const located: LocatedEntry[] = [];
  const commits: ParsedCommit[] = [];
  let at = 12;
  while (at < bytes.length) {
    const entry = parseEntry(bytes, at);
    if (entry === undefined) break;
    located.push({ id: Buffer.from(entry.id, "hex"), offset: at, crc: crc32(bytes.subarray(at, entry.end)) });
    if (entry.type === "commit") commits.push({ id: entry.id, parent: parentOf(entry.body) });
    at = entry.end;
  }
  return { located, commits, end: at };
}

function parseEntry(
  bytes: Buffer,
  at: number,
): { id: string; type: ObjectType; body: Buffer; end: number } | undefined {
  let byte = bytes[at] ?? 0;
  const type = TYPE_NAMES[(byte >> 4) & 7];
  let size = byte & 0x0f;
  let scale = 16;
  let next = at + 1;
  while (byte & 0x80) {
    if (next >= bytes.length) return undefined;
    byte = bytes[next++] ?? 0;
    size += (byte & 0x7f) * scale;
    scale *= 128;
  }
  if (type === undefined) return undefined;
  let body: Buffer;
  let consumed: number;
  try {
    const inflated = inflateSync(bytes.subarray(next), { info: true }) as unknown as {
      buffer: Buffer;
      engine: { bytesWritten: number };
    };
    body = inflated.buffer;
    consumed = inflated.engine.bytesWritten;
  } catch {
    return undefined;
  }
  if (body.length !== size) return undefined;
  return { id: objectId(type, body), type, body, end: next + consumed };
}

function parentOf(body: Buffer): string | undefined {
  return /\nparent ([0-9a-f]{40})\n/.exec(body.toString("latin1", 0, Math.min(body.length, 200)))?.[1];
}
