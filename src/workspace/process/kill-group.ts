/**
 * Signals a whole process group (the leader was spawned `detached`, so its pid is the group id).
 * Returns false when nothing could be signalled: the group is gone (ESRCH) or holds only processes
 * we may not signal (EPERM, a setuid program). Any other error (an unknown signal) is a bug and throws.
 */
export function killGroup(groupId: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-groupId, signal);
    return true;
  } catch (caught) {
    if (isErrnoException(caught) && (caught.code === "ESRCH" || caught.code === "EPERM")) return false;
    throw caught;
  }
}

function isErrnoException(value: unknown): value is NodeJS.ErrnoException {
  return value instanceof Error && "code" in value;
}
