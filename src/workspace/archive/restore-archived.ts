import { relative } from "node:path";
import type { ExecutionLayout } from "../execution-layout.ts";
import { RIG_ARCHIVE_NAME } from "../outputs/index.ts";
import type { ArchiveRestoreData, FailedPath } from "./archive-events.ts";
import { type ArchiveManifestEntry, readArchiveManifest, writeArchiveManifest } from "./archive-manifest.ts";
import { removeEmptyParents } from "./remove-empty-parents.ts";
import { restoreEntry } from "./restore-entry.ts";

/**
 * Which archived files to put back, for the rollback target `codonId`: every open entry archived
 * strictly after `afterTimestamp` (ISO 8601, e.g. the target checkpoint's time), or the listed entries.
 */
export type RestoreSelection =
  | { readonly codonId: string; readonly afterTimestamp: string }
  | { readonly codonId: string; readonly entryIds: readonly string[] };

export interface RestoreArchivedDeps {
  /** `restoredAt`. */
  readonly clock: { now(): number };
}

export interface RestoreArchivedResult {
  readonly status: "completed" | "partial" | "failed";
  /** agentRoot-relative paths put back. */
  readonly restoredPaths: readonly string[];
  readonly failedPaths: readonly FailedPath[];
  readonly restoredEntryIds: readonly string[];
  /** Later archives of a path whose older archive was restored: left in rigArchive, closed. */
  readonly supersededEntryIds: readonly string[];
  /** The `rollback.archiveRestore` payload, for the caller to emit. */
  readonly event: ArchiveRestoreData;
}

/**
 * Puts archived files back where they were archived from (reference 1.14: a rollback restores files
 * archived after its target). Entries are handled oldest first; when one path was archived several
 * times (a loop), the oldest open archive is the one restored, as it is the nearest to the target,
 * and the later ones are marked superseded (when the oldest cannot be restored, the later ones are
 * left open and untried). A restore never overwrites: a path that exists again in
 * agentRoot fails (the archived copy stays). Each entry is checked before anything moves: paths from
 * the manifest must stay in agentRoot and rigArchive, away from `.hankweave`, the data link and any
 * symbolic link, and the archived copy must still have its recorded SHA-256. Restored entries get
 * `restoredAt` (one atomic manifest write). Directories emptied in rigArchive are removed. Never
 * throws for what the disk or the manifest holds; an unparsable `afterTimestamp` is a bug and throws.
 */
export async function restoreArchived(
  manifestPath: string,
  selection: RestoreSelection,
  layout: ExecutionLayout,
  deps: RestoreArchivedDeps,
): Promise<RestoreArchivedResult> {
  const manifestShown = relative(layout.executionDir, manifestPath) || manifestPath;
  const read = await readArchiveManifest(manifestPath);
  if (!read.ok) {
    return outcome(selection.codonId, {
      ...emptyTally(),
      failed: [{ path: manifestShown, error: read.error }],
    });
  }
  const selected = selectEntries(read.manifest.entries, selection);
  const { tally, marks } = await restoreInOrder(selected, layout, new Date(deps.clock.now()).toISOString());
  await removeEmptyParents(
    layout.rigArchiveDir,
    tally.restored.map((r) => r.to.slice(RIG_ARCHIVE_NAME.length + 1)),
  );
  if (marks.size > 0) {
    const entries = read.manifest.entries.map((e) => ({ ...e, ...marks.get(e.id) }));
    const error = await writeArchiveManifest(manifestPath, { ...read.manifest, entries });
    if (error !== null) tally.failed.push({ path: manifestShown, error });
  }
  return outcome(selection.codonId, tally);
}

type Mark = Pick<ArchiveManifestEntry, "restoredAt"> | Pick<ArchiveManifestEntry, "supersededBy">;

/** Restores the oldest entry of each path; later entries of a restored path are superseded. */
async function restoreInOrder(
  selected: readonly ArchiveManifestEntry[],
  layout: ExecutionLayout,
  restoredAt: string,
): Promise<{ tally: Tally; marks: Map<string, Mark> }> {
  const tally = emptyTally();
  const marks = new Map<string, Mark>();
  /** Per `from`: the id of the entry restored to it, or null when its restore failed. */
  const settled = new Map<string, string | null>();
  for (const entry of selected) {
    const winner = settled.get(entry.from);
    if (winner === null) continue;
    if (winner !== undefined) {
      marks.set(entry.id, { supersededBy: winner });
      tally.superseded.push(entry.id);
      continue;
    }
    const problem = await restoreEntry(entry, layout);
    settled.set(entry.from, problem === null ? entry.id : null);
    if (problem !== null) tally.failed.push({ path: entry.from, error: problem });
    else {
      tally.restored.push({ id: entry.id, from: entry.from, to: entry.to });
      marks.set(entry.id, { restoredAt });
    }
  }
  return { tally, marks };
}

interface Tally {
  readonly restored: Array<{ id: string; from: string; to: string }>;
  readonly failed: FailedPath[];
  readonly superseded: string[];
}

function emptyTally(): Tally {
  return { restored: [], failed: [], superseded: [] };
}

/** Open entries matching the selection, oldest first (manifest order among equal times). */
export function selectEntries(
  entries: readonly ArchiveManifestEntry[],
  selection: RestoreSelection,
): ArchiveManifestEntry[] {
  const open = entries.filter((e) => e.restoredAt === undefined && e.supersededBy === undefined);
  let chosen: ArchiveManifestEntry[];
  if ("entryIds" in selection) {
    const ids = new Set(selection.entryIds);
    chosen = open.filter((e) => ids.has(e.id));
  } else {
    const after = Date.parse(selection.afterTimestamp);
    if (Number.isNaN(after))
      throw new RangeError(`restoreArchived: bad afterTimestamp "${selection.afterTimestamp}"`);
    chosen = open.filter((e) => Date.parse(e.archivedAt) > after);
  }
  return chosen
    .map((entry, index) => ({ entry, index, at: Date.parse(entry.archivedAt) }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map(({ entry }) => entry);
}

function outcome(codonId: string, tally: Tally): RestoreArchivedResult {
  const restoredPaths = tally.restored.map((r) => r.from);
  const status = tally.failed.length === 0 ? "completed" : restoredPaths.length === 0 ? "failed" : "partial";
  return {
    status,
    restoredPaths,
    failedPaths: tally.failed,
    restoredEntryIds: tally.restored.map((r) => r.id),
    supersededEntryIds: tally.superseded,
    event: {
      codonId,
      restoredPaths,
      ...(tally.failed.length === 0 ? {} : { failedPaths: tally.failed }),
      status,
    },
  };
}
