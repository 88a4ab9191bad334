import { open, readFile, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { fsErrorCode, fsErrorText } from "../outputs/index.ts";

export const ARCHIVE_MANIFEST_VERSION = 1;

/**
 * One archived file or link. `from` is agentRoot-relative (where it lived), `to` is relative to the
 * execution directory (`rigArchive/...`, where it is now); both `/`-separated. For a link, `sizeBytes`
 * and `sha256` describe its target text. An entry is open until it is restored (`restoredAt`) or
 * left in the archive because an older archive of the same path was restored instead (`supersededBy`).
 */
export const ArchiveManifestEntry = z.object({
  id: z.string().min(1),
  codonId: z.string(),
  runId: z.string(),
  archivedAt: z.iso.datetime(),
  from: z.string().min(1),
  to: z.string().min(1),
  kind: z.enum(["file", "symlink"]),
  sizeBytes: z.int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  restoredAt: z.iso.datetime().optional(),
  supersededBy: z.string().optional(),
});
export type ArchiveManifestEntry = z.infer<typeof ArchiveManifestEntry>;

export const ArchiveManifest = z.object({
  version: z.literal(ARCHIVE_MANIFEST_VERSION),
  entries: z.array(ArchiveManifestEntry),
});
export type ArchiveManifest = z.infer<typeof ArchiveManifest>;

export type ManifestRead =
  | { readonly ok: true; readonly manifest: ArchiveManifest }
  | { readonly ok: false; readonly error: string };

/** The manifest at `path`; a missing file is an empty manifest, an unreadable or invalid one an error. */
export async function readArchiveManifest(path: string): Promise<ManifestRead> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (fsErrorCode(error) === "ENOENT") return { ok: true, manifest: emptyManifest() };
    return { ok: false, error: `cannot read the archive manifest: ${fsErrorText(error)}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: `the archive manifest ${path} is not valid JSON` };
  }
  const parsed = ArchiveManifest.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first === undefined ? "" : ` at ${first.path.join(".") || "the top"}: ${first.message}`;
    return { ok: false, error: `the archive manifest ${path} is invalid${where}` };
  }
  return { ok: true, manifest: parsed.data };
}

export function emptyManifest(): ArchiveManifest {
  return { version: ARCHIVE_MANIFEST_VERSION, entries: [] };
}

/**
 * Replaces the manifest atomically: a temp file beside it (same filesystem) is written, fsynced and
 * renamed over it, then the directory entry is synced, so a reader sees the old or the new manifest,
 * never a torn one. Returns null, or the error.
 */
export async function writeArchiveManifest(path: string, manifest: ArchiveManifest): Promise<string | null> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    const file = await open(temp, "w");
    try {
      await file.writeFile(`${JSON.stringify(manifest, null, 2)}\n`);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    return `cannot write the archive manifest: ${fsErrorText(error)}`;
  }
  await syncDirectory(dirname(path));
  return null;
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some filesystems refuse fsync on a directory; the rename has happened all the same.
  }
}
