/** Misuse of the journal: a bug in the caller, never an expected outcome. */
export type JournalErrorCode = "connection-event" | "invalid-event" | "closed";

export class JournalError extends Error {
  readonly code: JournalErrorCode;

  constructor(code: JournalErrorCode, message: string) {
    super(message);
    this.name = "JournalError";
    this.code = code;
  }
}
