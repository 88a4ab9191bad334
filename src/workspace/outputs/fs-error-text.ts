/** The message of a filesystem error (Node's already starts with the errno code, e.g. `EACCES: ...`). */
export function fsErrorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The errno code of a filesystem error, or undefined. */
export function fsErrorCode(error: unknown): string | undefined {
  return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}
