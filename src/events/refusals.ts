/**
 * Why the runner refused to start or go on with an execution, as a code: what callers decide on
 * (a Loop's driver tells a missing tool from a busy execution by it), never the message's English.
 */
/** Why an execution directory could not be created or resumed (the pure choice's refusals). */
export const OPEN_REFUSAL_CODES = [
  "base-dir",
  "not-a-directory",
  "nested",
  "state-exists",
  "invalid-state",
  "not-empty",
  /** The data source differs from the one the execution was created with. */
  "data-changed",
  /** The hank changed since the execution was created, and the change was not accepted. */
  "hank-changed",
] as const;
export type OpenRefusalCode = (typeof OPEN_REFUSAL_CODES)[number];

export const REFUSAL_CODES = [
  ...OPEN_REFUSAL_CODES,
  /** The `git` command the checkpoints need is not installed. */
  "git-missing",
  /** The command-harness configuration (`commands`) could not be read. */
  "commands-invalid",
  /** A model's harness failed its self-test (a missing SDK or credential). */
  "self-test-failed",
  /** `-o` names a place outputs cannot be copied to. */
  "output-dir-invalid",
  /** The execution could not be opened for another reason (an unreadable data source, a bad `-e`...). */
  "execution-refused",
  /** Another process holds the execution's lock. */
  "lock-held",
  /** The run lost the execution's lock to another process while it ran. */
  "lock-lost",
  /** An interrupted rollback must be finished or abandoned first. */
  "rollback-interrupted",
  /** The checkpoint store lost the checkpoints the journal restarts from (a start with `-y` goes on). */
  "checkpoints-lost",
  /** The journal or state does not say where to resume. */
  "resume-invalid",
  /** A filesystem fault (full, read-only, a permission, a directory where a file belongs). */
  "filesystem-fault",
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];
