/**
 * The events archiving emits, as plain `{type, data}` objects. The workspace layer may not import the
 * journal, so these mirror its payloads (`ArchiveCompletedData`, `ArchivePartialData`, `InfoData`
 * and `RollbackArchiveRestoreData` in `src/journal/payloads-server-state.ts`) field for field.
 */

export interface FailedPath {
  readonly path: string;
  readonly error: string;
}

export interface ArchiveCompletedData {
  /** The runtime codon id (`edit#0`), or the loop id for a loop's own archive. */
  readonly codonId: string;
  /** agentRoot-relative paths that were moved. */
  readonly archivedPaths: readonly string[];
}

export interface ArchivePartialData extends ArchiveCompletedData {
  readonly failedPaths: readonly FailedPath[];
}

/** The payload of `rollback.archiveRestore`, returned to the rollback driver which emits it. */
export interface ArchiveRestoreData {
  readonly codonId: string;
  /** agentRoot-relative paths put back. */
  readonly restoredPaths: readonly string[];
  readonly failedPaths?: readonly FailedPath[];
  readonly status: "completed" | "partial" | "failed";
}

export type ArchiveEvent =
  | { readonly type: "archive.completed"; readonly data: ArchiveCompletedData }
  | { readonly type: "archive.partial"; readonly data: ArchivePartialData }
  | { readonly type: "info"; readonly data: { readonly message: string } };
