import type { Checkpointer, CheckpointRecord } from "../../checkpoint/index.ts";
import type { HankFile } from "../../hank/schema/index.ts";
import type { DataOf } from "../../journal/index.ts";
import type { ExecutionPlan } from "../../plan/index.ts";
import type { EventSink } from "../run/event-sink.ts";
import type { JournalLine } from "./journal-line.ts";

export {
  isRollbackCheckpointType,
  ROLLBACK_CHECKPOINT_TYPES,
  type RollbackCheckpointType,
} from "../../events/checkpoints.ts";

import type { RollbackCheckpointType } from "../../events/checkpoints.ts";

/**
 * The `error` code journaled when a person abandons an interrupted rollback: the rollback is over
 * without having happened, and the execution goes on from where it stood before it.
 */
export const ROLLBACK_ABANDONED_CODE = "rollback-abandoned";

/**
 * What to roll back to:
 * - `checkpoint`: a full checkpoint id or a unique prefix of at least 4 hex digits;
 * - `codon`: a runtime id (`edit#1`) or a config id (`edit`, meaning its latest execution on the line),
 *   with the checkpoint type to pick;
 * - `last-success`: the latest `completed` checkpoint on the line;
 * - `named`: what a person typed: `last-success`, a checkpoint prefix or a codon id (type `completed`);
 *   text that is both a prefix and a codon id is refused as ambiguous.
 */
export type RollbackTarget =
  | { readonly kind: "checkpoint"; readonly sha: string }
  | { readonly kind: "codon"; readonly codonId: string; readonly checkpointType: RollbackCheckpointType }
  | { readonly kind: "last-success" }
  | { readonly kind: "named"; readonly name: string };

/** One open entry of the archive manifest, as much of it as the rollback decides on. */
export interface ArchivedEntry {
  readonly id: string;
  /** Runtime codon id, or loop id for a loop's archive. */
  readonly codonId: string;
  readonly runId: string;
  /** ISO 8601. */
  readonly archivedAt: string;
  /** agentRoot-relative path the file was archived from. */
  readonly from: string;
}

export type ArchiveRestoreData = DataOf<"rollback.archiveRestore">;

/**
 * The archive, seen from a rollback (the workspace implements it; the composition root passes it in).
 * `openEntries` lists entries neither restored nor superseded; `restore` puts the named entries back and
 * returns the `rollback.archiveRestore` payload. Neither throws for what the disk holds.
 */
export interface ArchiveRestorer {
  openEntries(): Promise<
    | { readonly ok: true; readonly entries: readonly ArchivedEntry[] }
    | { readonly ok: false; readonly error: string }
  >;
  restore(codonId: string, entryIds: readonly string[]): Promise<ArchiveRestoreData>;
}

export interface RollbackInput {
  /** The hank of the execution (validated): its `checkpointedFiles` and plan. */
  readonly hank: HankFile;
  readonly target: RollbackTarget;
  /** Recorded in `rollback.completed`: whether the caller runs the continuation at once. */
  readonly autoRestart: boolean;
  /** The journal read up to now (`readJournalLine`); its state must be the sink's initial state. */
  readonly line: JournalLine;
}

export interface RollbackDeps {
  /** The execution's journal, hydrated with `line.state` (and anything emitted since, e.g. a crash mark). */
  readonly sink: EventSink;
  readonly checkpointer: Checkpointer;
  /** Without it, archived files are left where they are. */
  readonly archives?: ArchiveRestorer;
  /** The id of the continuation run (a ref-safe name). */
  readonly newRunId: () => string;
  /** Saves the rewritten plan with the sink's state (the `state.json` snapshot). */
  readonly persist: (plan: ExecutionPlan) => void;
}

export type RollbackErrorCode =
  /** The journal has no run to roll back. */
  | "no-runs"
  /** The checkpoint store could not be opened or listed (nothing was changed). */
  | "checkpoints-unavailable"
  /** The text cannot name a checkpoint (e.g. a 3-digit prefix). */
  | "bad-target"
  /** Nothing on the current line matches. */
  | "unknown-target"
  /** Several checkpoints match (see `candidates`), or the text is both a prefix and a codon id. */
  | "ambiguous-target"
  /** The checkpoint exists but a rollback abandoned its line, or the journal does not know its codon. */
  | "off-line"
  /** A step failed after `rollback.started`: the journal shows the rollback as interrupted. */
  | "failed";

export type RollbackFailure = {
  readonly ok: false;
  readonly code: RollbackErrorCode;
  readonly message: string;
  /** For an ambiguous prefix: the checkpoints it matches. */
  readonly candidates?: readonly CheckpointRecord[];
};

export interface RollbackSuccess {
  readonly ok: true;
  readonly fromRun: string;
  /** The continuation run: its checkpoint line starts at `checkpoint.sha`; the next start runs it. */
  readonly toRun: string;
  readonly checkpoint: CheckpointRecord;
  /** The codon and type recorded in `rollback.completed` (for `start`, the codon that runs again). */
  readonly codonId: string;
  readonly checkpointType: string;
  /** Codons undone by the rollback, in execution order: they run again. */
  readonly codonsToProcess: readonly string[];
  /** Work-tree files rewritten from the checkpoint, and files created since that were removed. */
  readonly restored: readonly string[];
  readonly removed: readonly string[];
  /** The archive restore, when entries were selected. */
  readonly archive?: ArchiveRestoreData;
  readonly plan: ExecutionPlan;
}

export type RollbackResult = RollbackSuccess | RollbackFailure;
