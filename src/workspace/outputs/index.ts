/**
 * Output files: a codon's `outputFiles` copied to the `-o` directory after it succeeds, and the
 * pieces the archive shares (workspace glob scan, safe placement of files and links, renamed names).
 */
export { conflictName, MAX_CONFLICT_RENAMES, unixSecondsOf } from "./conflict-name.ts";
export { copyOutputFiles } from "./copy-output-files.ts";
export { fsErrorCode, fsErrorText } from "./fs-error-text.ts";
export { outputDirProblem } from "./output-dir-problem.ts";
export type {
  CopiedOutput,
  CopyOutputFilesDeps,
  CopyOutputFilesInput,
  CopyOutputFilesResult,
  OutputEvent,
  OutputFailure,
  OutputProblem,
  RenamedOutput,
} from "./output-types.ts";
export { type ConflictPolicy, type PlaceRequest, type PlaceResult, placeEntry } from "./place-entry.ts";
export { isInside, realDirectoryProblem } from "./real-directory.ts";
export {
  BEFORE_COPY_TAIL_LINES,
  type BeforeCopyContext,
  type BeforeCopyOutcome,
  runBeforeCopy,
} from "./run-before-copy.ts";
export {
  RIG_ARCHIVE_NAME,
  scanWorkspace,
  type WorkspaceEntryKind,
  type WorkspaceMatch,
  type WorkspaceScan,
  workspaceGlobProblem,
} from "./workspace-scan.ts";
