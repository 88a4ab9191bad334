/**
 * The checkpoint vocabulary, once (plain values, no schema: the CLI's argument parser reads it before
 * anything loads zod; the payload schema is `CheckpointType` in `payloads-server-state.ts`): the types a checkpoint is recorded with, the types a rollback may
 * name, which of them undo their own codon, and the branch a run's checkpoints line up on. The
 * checkpoint store, the journal reducer, the rollback planner, the protocol and the CLI all read it.
 */

/** A codon gets a `rig-setup` checkpoint when it has a rig, and one of the others when an attempt ends. */
export const CHECKPOINT_TYPES = ["rig-setup", "completed", "error", "skipped"] as const;
export type CheckpointType = (typeof CHECKPOINT_TYPES)[number];

/**
 * The types a rollback to a codon may name: the recorded ones, plus `start` (the state before the
 * codon ran: its rig-setup checkpoint, or the checkpoint before its first one) and `end` (the codon's
 * latest checkpoint, whatever its type).
 */
export const ROLLBACK_CHECKPOINT_TYPES = ["start", "end", ...CHECKPOINT_TYPES] as const;
export type RollbackCheckpointType = (typeof ROLLBACK_CHECKPOINT_TYPES)[number];

export function isCheckpointType(text: string): text is CheckpointType {
  return (CHECKPOINT_TYPES as readonly string[]).includes(text);
}

export function isRollbackCheckpointType(text: string): text is RollbackCheckpointType {
  return (ROLLBACK_CHECKPOINT_TYPES as readonly string[]).includes(text);
}

/**
 * The rollback rule: a checkpoint whose state predates its codon (`rig-setup`, `start`) undoes that
 * codon too; any other undoes only the codons after it.
 */
export function undoesItsCodon(checkpointType: string): boolean {
  return checkpointType === "rig-setup" || checkpointType === "start";
}

/** The branch name of a run's line of checkpoints. */
export function runBranch(runId: string): string {
  return `run/${runId}`;
}
