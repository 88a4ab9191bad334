import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";
import { writeDurably } from "../../util/atomic-write.ts";
import { syncDirectory } from "../../util/sync-directory.ts";

/**
 * The files of a dieted journal, beside `events.jsonl`: `journal.diet.json` (the manifest) and
 * `cas/<sha[0:2]>/<sha>.gz` (the moved bodies, gzip, named by the sha256 of the uncompressed body).
 */
export const MANIFEST_NAME = "journal.diet.json";

const MovedBodySchema = z.strictObject({
  seq: z.number().int().positive(),
  path: z.array(z.union([z.string(), z.number().int().nonnegative()])),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export const DietManifestSchema = z.strictObject({
  dietVersion: z.literal(1),
  events: z.number().int().nonnegative(),
  originalSha256: z.string().regex(/^[0-9a-f]{64}$/),
  originalBytes: z.number().int().nonnegative(),
  dietedSha256: z.string().regex(/^[0-9a-f]{64}$/),
  dietedBytes: z.number().int().nonnegative(),
  unchained: z.array(z.number().int().nonnegative()),
  moved: z.array(MovedBodySchema),
  dietedAt: z.string(),
});
export type DietManifest = z.infer<typeof DietManifestSchema>;

export function manifestPath(eventsDir: string): string {
  return join(eventsDir, MANIFEST_NAME);
}

export function casPath(eventsDir: string, sha256: string): string {
  return join(eventsDir, "cas", sha256.slice(0, 2), `${sha256}.gz`);
}

/** The manifest, undefined when there is none, or a message saying why it cannot be used. */
export function readManifest(eventsDir: string): DietManifest | undefined | string {
  const path = manifestPath(eventsDir);
  if (!existsSync(path)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (caught) {
    return `${path} is not JSON: ${caught instanceof Error ? caught.message : String(caught)}`;
  }
  const parsed = DietManifestSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return `${path}: ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`;
}

/** Stores a body (once: the name is its hash); written to a temp file, synced, then renamed. */
export function storeBody(eventsDir: string, sha256: string, body: string): number {
  const path = casPath(eventsDir, sha256);
  const compressed = gzipSync(body, { level: 9 });
  if (existsSync(path)) return compressed.length;
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, compressed);
  renameSync(temporary, path);
  return compressed.length;
}

/** Reads a body back, throwing when it is missing or does not hash to its name. */
export function loadBody(eventsDir: string, sha256: string): string {
  const body = gunzipSync(readFileSync(casPath(eventsDir, sha256))).toString("utf8");
  const actual = createHash("sha256").update(body).digest("hex");
  if (actual !== sha256)
    throw new Error(`${casPath(eventsDir, sha256)} does not hash to its name (sha256 ${actual})`);
  return body;
}

/** Writes `text` to `<path>.<pid>.tmp` durably; the caller renames it into place. */
export function writeTemporary(path: string, text: string): string {
  const temporary = `${path}.${process.pid}.tmp`;
  writeDurably(temporary, text);
  return temporary;
}

export function commitRename(temporary: string, path: string): void {
  renameSync(temporary, path);
  syncDirectory(dirname(path));
}
