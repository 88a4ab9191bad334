/**
 * The Checkpointer contract: the sealed record of the tracked files at each codon boundary
 * (reference 1.14). The engine talks only to this interface; `git/` is the implementation, and
 * `runCheckpointerConformance` (`hankweave/testing`, src/testing/checkpoint-conformance/) is the suite
 * every implementation must pass.
 *
 * Model. A checkpointer keeps a line of checkpoints per run (`run/<runId>`), each checkpoint a full
 * snapshot of the *tracked set*: every file ever recorded on that line and not deleted since. A commit
 * updates the tracked set with the files of the work tree that match the codon's `checkpointedFiles`
 * globs (gitignore rules applied, mandatory excludes never recorded) and seals it. Files outside the
 * globs keep the state recorded by earlier codons.
 *
 * Mandatory excludes, never recorded, removed or restored: the data link `read_only_data_source/` and
 * `rigArchive/` at the top of the work tree, and any `.hankweave/` or `.git/` directory at any depth.
 *
 * Errors. Not-found answers are values (`resolve` gives `undefined`, `list` gives `[]`). Everything else
 * that goes wrong (git missing, a broken repository, a call out of order) rejects with a
 * `CheckpointError` carrying a `code`.
 */
export type { CheckpointType } from "../events/checkpoints.ts";

import type { CheckpointType } from "../events/checkpoints.ts";

export interface CheckpointRecord {
  /** Full commit id. */
  readonly sha: string;
  /** The runtime codon id, e.g. `edit#0` inside a loop. */
  readonly codonId: string;
  readonly codonName: string;
  readonly checkpointType: CheckpointType;
  readonly runId: string;
  /** ISO 8601 instant from the injected clock at commit time, millisecond precision. */
  readonly timestamp: string;
  /** The run's line of checkpoints: always `run/<runId>`. */
  readonly branch: string;
}

export interface CommitInput {
  readonly codonId: string;
  readonly codonName: string;
  readonly type: CheckpointType;
  /**
   * The codon's `checkpointedFiles`, relative to the work tree. A directory name matches its contents
   * (`notes` ≡ `notes/**`); `*` and `?` never cross `/`; `**` spans directories. Empty: nothing is
   * updated and the checkpoint seals the tracked set as it stands (an empty commit).
   */
  readonly globs: readonly string[];
  /**
   * A hint: the paths (relative to the work tree, or absolute inside it) that changed since the last
   * commit, as the harness reported them. When given, only these paths (and the files under them when
   * they name directories) are considered, so the cost grows with what changed and not with the work
   * tree; deletions among them are recorded. Changes not listed are picked up by a later commit without
   * the hint. Naming the work tree itself means "anything may have changed". An implementation may
   * scan the whole tree instead (e.g. for very long lists); the result then only includes more
   * changes, never fewer.
   */
  readonly changedPaths?: readonly string[];
  /** Free text stored with the checkpoint (one paragraph), for people reading the history. */
  readonly message?: string;
}

export interface RunStart {
  readonly runId: string;
  /** `run/<runId>`. */
  readonly branch: string;
  /** The checkpoint the run's line starts from (its latest checkpoint when the run is resumed). */
  readonly baseSha: string;
}

export interface RestoreOptions {
  /**
   * The checkpoint selection to clean: files on disk that match these globs (gitignore rules applied)
   * and are absent from the target are removed, as are tracked files absent from the target. Pass the
   * union of the hank's `checkpointedFiles`. Default: only tracked files.
   */
  readonly globs?: readonly string[];
}

export interface RestoreReport {
  /** The full id of the restored checkpoint. */
  readonly sha: string;
  /** Files (re)written from the checkpoint because they were missing or differed, sorted. */
  readonly restored: readonly string[];
  /** Files of the selection that the checkpoint did not have (created since), deleted, sorted. */
  readonly removed: readonly string[];
}

export interface Checkpointer {
  /**
   * Creates the store if needed; idempotent, and completes a store left half-made by a crash. Leaves
   * existing checkpoints and run lines untouched. Must be called before any other method.
   */
  init(): Promise<void>;
  /**
   * Makes `runId` the active run. A new run's line starts at `fromSha` (a continuation after rollback)
   * or, without it, at the latest checkpoint of the previously active line (the initial checkpoint for
   * the first run). An existing run is resumed at its latest checkpoint; passing a different `fromSha`
   * for it is a bug and rejects. Afterwards the tracked set is the base checkpoint's.
   * Run ids are ref-safe names (`[A-Za-z0-9._-]`, not starting with `.` or `-`).
   */
  startRun(runId: string, fromSha?: string): Promise<RunStart>;
  /**
   * Records a checkpoint on the active run's line and returns it. Rejects when no run is active.
   * Concurrent calls on one checkpointer are serialised.
   */
  commit(input: CommitInput): Promise<CheckpointRecord>;
  /**
   * The checkpoints made by `runId`, oldest first (not those it inherited from its base); without an
   * argument, the checkpoints of every run, parents before children. Unknown run: `[]`.
   */
  list(runId?: string): Promise<CheckpointRecord[]>;
  /**
   * The full id of the checkpoint named by `target`, a full id or a unique prefix of at least 4 hex
   * digits; `undefined` when nothing (or more than one) matches or `target` is not hex.
   */
  resolve(target: string): Promise<string | undefined>;
  /**
   * Makes the work tree's checkpoint selection equal to checkpoint `sha` (a full id): restores its
   * files that are missing or differ, deletes selection files it did not have, and prunes directories
   * left empty by those deletions. Files outside the selection, ignored files and the mandatory
   * excludes are never touched. Moves no run line; the tracked set becomes the checkpoint's. Rejects
   * for an unknown `sha`.
   */
  restore(sha: string, options?: RestoreOptions): Promise<RestoreReport>;
  /** The files recorded in checkpoint `sha`, sorted. Rejects for an unknown `sha`. */
  filesAt(sha: string): Promise<string[]>;
  /**
   * Makes every checkpoint committed so far readable by other readers of the store (other
   * checkpointers over it, other processes). The git store with a run pack shows them to other
   * processes only when sealed, at most about a second late, and seals at once here; an
   * implementation that writes through at each commit needs none. Optional.
   */
  flush?(): Promise<void>;
  /**
   * Finishes background work (the git store packs what a run wrote) so the store is left compact and no
   * process outlives the run. Optional; calls made after it are still served. Never rejects: background
   * work that failed leaves a correct store, only a larger one.
   */
  close?(): Promise<void>;
  /**
   * Frees what this process holds to write the store (the git store's spare files) without writing to
   * it: what a process that lost the execution's lock does instead of `close`. `close` frees it too.
   * Optional; idempotent.
   */
  release?(): void;
}

export { runBranch } from "../events/checkpoints.ts";

/** Ref-safe run ids: one path component git accepts in a branch name. */
export function isValidRunId(runId: string): boolean {
  return (
    /^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(runId) &&
    !runId.includes("..") &&
    !runId.endsWith(".lock") &&
    !runId.endsWith(".")
  );
}
