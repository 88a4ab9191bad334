/**
 * Why a checkpointer call failed. Not-found answers are values in the contract; these are the rest:
 * - `git-unavailable`: git could not be started (not installed, or the work tree is missing);
 * - `git-failed`: a git command exited with an error (`args` and `stderr` say which and why);
 * - `not-initialized` / `no-active-run`: a call out of order (a bug in the caller);
 * - `invalid-run-id` / `run-conflict`: a run id git cannot hold, or an existing run restarted elsewhere;
 * - `unknown-checkpoint`: `restore`/`filesAt`/`startRun` named a commit the store does not have;
 * - `ref-moved`: the run's line moved under us (another writer on the same store);
 * - `ref-locked`: the line's lock file is held (another writer, or a crash that left it behind).
 */
export type CheckpointErrorCode =
  | "git-unavailable"
  | "git-failed"
  | "not-initialized"
  | "no-active-run"
  | "invalid-run-id"
  | "run-conflict"
  | "unknown-checkpoint"
  | "ref-moved"
  | "ref-locked"
  | "run-pack-taken";

/**
 * The journal `error` code of a codon end (`completed` or `error`) that could not be checkpointed
 * (`codon` names it). It is journaled before that attempt's `codon.completed`: a restart must not walk
 * back over the files of a finished codon whose end no checkpoint holds.
 */
export const CHECKPOINT_NOT_MADE_CODE = "checkpoint-not-made";

export interface CheckpointErrorDetails {
  /** The git arguments of the failing command, when one failed. */
  readonly args?: readonly string[];
  readonly exitCode?: number;
  readonly stderr?: string;
}

export class CheckpointError extends Error {
  readonly code: CheckpointErrorCode;
  readonly details: CheckpointErrorDetails;

  constructor(code: CheckpointErrorCode, message: string, details: CheckpointErrorDetails = {}) {
    super(message);
    this.name = "CheckpointError";
    this.code = code;
    this.details = details;
  }
}
