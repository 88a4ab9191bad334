import { JournalWriter } from "../journal/index.ts";
import { fsFaultMessage } from "../util/fs-fault.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";
import type { ExecutionResult } from "./execution-options.ts";

/**
 * A filesystem fault (a full disk, a read-only one, a permission, a directory where a file belongs) that
 * ended a start or a run, as a refusal with a one-line message naming the path and the fix, journaled
 * too when the journal can still be written. Anything else (a bug) gives undefined and is rethrown.
 * The run the fault cut short stays open in the journal, so the next start recovers it like a crash.
 */
export function faultResult(
  error: unknown,
  layout: ExecutionLayout | undefined,
): ExecutionResult | undefined {
  const message = fsFaultMessage(error);
  if (message === undefined) return undefined;
  if (layout !== undefined) journalQuietly(layout.eventsPath, message, true);
  return {
    kind: "refused",
    exitCode: 1,
    code: "filesystem-fault",
    message,
    ...(layout !== undefined && { layout }),
  };
}

/**
 * Releases the execution's lock; a failure is journaled (when it can be) instead of thrown, so it never
 * replaces the error or the result of the run it follows. A lock left behind is taken over by the next
 * start once its process is gone.
 */
export function releaseLockQuietly(release: () => unknown, layout: ExecutionLayout): void {
  try {
    release();
  } catch (error) {
    const why = fsFaultMessage(error) ?? (error instanceof Error ? error.message : String(error));
    journalQuietly(
      layout.eventsPath,
      `The lock ${layout.lockPath} could not be removed; the next start takes it over. ${why}`,
      false,
    );
  }
}

function journalQuietly(path: string, message: string, fatal: boolean): void {
  let writer: JournalWriter | undefined;
  try {
    writer = JournalWriter.open(path);
    writer.append({
      type: "error",
      data: {
        message,
        fatal,
        severity: fatal ? "fatal" : "warning",
        context: "filesystem",
        code: "filesystem",
      },
    });
  } catch {
    // The journal is the thing that cannot be written (or is not there): the message still reaches the caller.
  } finally {
    try {
      writer?.close();
    } catch {
      // Same as above.
    }
  }
}
