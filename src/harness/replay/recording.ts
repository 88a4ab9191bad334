import type { HarnessEvent, SessionOutcome } from "../harness.ts";

/**
 * A recorded execution, as the replay harness needs it: for every agent session of the recorded run
 * (one per codon attempt), what the agent said and did, what it left in the workspace, and how the
 * session ended. Built from the recording's journal and checkpoints by the `--replay` command; the
 * harness itself reads no files of the recording.
 */
export interface RecordedFileChange {
  /** Relative to the workspace, `/`-separated. */
  readonly path: string;
  /** The file's bytes at the end of the session; absent when the session deleted it. */
  readonly content?: Buffer;
  /** Whether the file was executable (git mode 100755). */
  readonly executable?: boolean;
}

export interface RecordedSession {
  readonly codonId: string;
  readonly attempt: number;
  /** The normalized events of the session, in recorded order (`session.started` first when known). */
  readonly events: readonly HarnessEvent[];
  /** What the session changed in the workspace, written before its events are replayed. */
  readonly files: readonly RecordedFileChange[];
  readonly outcome: SessionOutcome;
}

export interface Recording {
  /** Where it was recorded (for messages). */
  readonly source: string;
  /** Sessions by `sessionKey`. */
  readonly sessions: ReadonlyMap<string, RecordedSession>;
}

/** The key of a codon attempt: runtime codon id (`edit#2`) and 1-based attempt. */
export function sessionKey(codonId: string, attempt: number): string {
  return `${codonId}\u0000${attempt}`;
}
