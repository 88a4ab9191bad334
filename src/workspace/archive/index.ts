/**
 * The archive: `archiveOnSuccess` moves files out of agentRoot into `rigArchive/`, records each move
 * in `.hankweave/archive-manifest.json`, and a rollback puts them back.
 */
export { type ArchiveTarget, archiveDirOf, archiveName } from "./archive-dir.ts";
export type {
  ArchiveCompletedData,
  ArchiveEvent,
  ArchivePartialData,
  ArchiveRestoreData,
  FailedPath,
} from "./archive-events.ts";
export {
  ARCHIVE_MANIFEST_VERSION,
  ArchiveManifest,
  ArchiveManifestEntry,
  emptyManifest,
  type ManifestRead,
  readArchiveManifest,
  writeArchiveManifest,
} from "./archive-manifest.ts";
export {
  type ArchivePathsDeps,
  type ArchivePathsInput,
  type ArchivePathsResult,
  archivePaths,
} from "./archive-paths.ts";
export { type EntryDigest, entryDigest } from "./entry-digest.ts";
export {
  type RestoreArchivedDeps,
  type RestoreArchivedResult,
  type RestoreSelection,
  restoreArchived,
  selectEntries,
} from "./restore-archived.ts";
