import type { EventSink } from "../../engine/index.ts";
import { auditJournal, auditMessage } from "../../journal/journal-audit.ts";

/**
 * Checks the journal's hash chain in the background while the run resumes (a long journal takes a
 * moment) and journals a warning naming where it is broken: a record edited, removed or inserted by
 * hand, or a journal cut at the front. The run goes on either way. Resolves once the check is done and
 * reported; never rejects (a journal that cannot be read again is reported as such).
 */
export async function auditJournalInBackground(path: string, sink: EventSink): Promise<void> {
  let message: string | undefined;
  try {
    message = auditMessage(await auditJournal(path), path);
  } catch (error) {
    message = `The journal ${path} could not be read back to check it (${error instanceof Error ? error.message : String(error)}).`;
  }
  if (message === undefined) return;
  try {
    sink.emit("error", {
      message,
      fatal: false,
      severity: "warning",
      context: "journal",
      code: "journal-tampered",
    });
  } catch {
    // The journal closed before the check finished (a run that ended at once): nothing left to write to.
  }
}
