/**
 * Why the runner refused to start or go on with an execution, as a code: what callers decide on
 * (a Loop's driver tells a missing tool from a busy execution by it), never the message's English.
 */
export const REFUSAL_CODES = [
  /** The `git` command the checkpoints need is not installed. */
  "git-missing",
  /** The command-harness configuration (`commands`) could not be read. */
  "commands-invalid",
  /** A model's harness failed its self-test (a missing SDK or credential). */
  "self-test-failed",
  /** `-o` names a place outputs cannot be copied to. */
  "output-dir-invalid",
  /** The execution could not be opened (a changed hank refused, a bad `-e`, a wipe declined...). */
  "execution-refused",
  /** Another process holds the execution's lock. */
  "lock-held",
  /** The run lost the execution's lock to another process while it ran. */
  "lock-lost",
  /** An interrupted rollback must be finished or abandoned first. */
  "rollback-interrupted",
  /** The journal or state does not say where to resume. */
  "resume-invalid",
  /** A filesystem fault (full, read-only, a permission, a directory where a file belongs). */
  "filesystem-fault",
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];
