import type { DataOf } from "../../events/index.ts";

/** The events archiving emits, as `{type, data}` drafts of the journal's own payloads. */
export type ArchiveCompletedData = DataOf<"archive.completed">;
export type ArchivePartialData = DataOf<"archive.partial">;
export type FailedPath = ArchivePartialData["failedPaths"][number];

/** The payload of `rollback.archiveRestore`, returned to the rollback driver which emits it. */
export type ArchiveRestoreData = DataOf<"rollback.archiveRestore">;

export type ArchiveEvent =
  | { readonly type: "archive.completed"; readonly data: ArchiveCompletedData }
  | { readonly type: "archive.partial"; readonly data: ArchivePartialData }
  | { readonly type: "info"; readonly data: DataOf<"info"> };
