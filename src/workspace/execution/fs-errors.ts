/** The `code` of a Node system error (ENOENT, EACCES, ...), or its message for anything else. */
export function errorCode(error: unknown): string {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  return error instanceof Error ? error.message : String(error);
}

export function isNotFound(error: unknown): boolean {
  return errorCode(error) === "ENOENT";
}
