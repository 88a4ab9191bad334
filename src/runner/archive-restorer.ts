import type { ArchiveRestorer } from "../engine/rollback/index.ts";
import { readArchiveManifest, restoreArchived } from "../workspace/archive/index.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";

/** The execution's archive (`archive-manifest.json` and `rigArchive/`) as the rollback's port, for every face that rolls back. */
export function archiveRestorer(layout: ExecutionLayout, clock: { now(): number }): ArchiveRestorer {
  return {
    async openEntries() {
      const read = await readArchiveManifest(layout.archiveManifestPath);
      if (!read.ok) return { ok: false, error: read.error };
      const open = read.manifest.entries.filter(
        (e) => e.restoredAt === undefined && e.supersededBy === undefined,
      );
      return { ok: true, entries: open };
    },
    async restore(codonId, entryIds) {
      const result = await restoreArchived(layout.archiveManifestPath, { codonId, entryIds }, layout, {
        clock,
      });
      const { event } = result;
      return {
        codonId: event.codonId,
        restoredPaths: [...event.restoredPaths],
        ...(event.failedPaths !== undefined && { failedPaths: event.failedPaths.map((f) => ({ ...f })) }),
        status: event.status,
      };
    },
  };
}
