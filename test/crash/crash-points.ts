import { appendFileSync, copyFileSync, existsSync, readFileSync, rmSync, truncateSync } from "node:fs";
import { join } from "node:path";
import type { JournaledEvent } from "../../src/journal/index.ts";

/**
 * Exact crash points that a signal from outside cannot hit on purpose, rebuilt from a real kill that
 * landed just after them. Between a codon's `completed` checkpoint, its `codon.completed` journal write
 * and the `state.json` write there are microseconds; the next codon's rig then sleeps without touching
 * the workspace or the checkpoint store. A kill in that quiet window leaves the disk as it was at the
 * earlier point, except for journal records written since and the snapshot, which these functions put
 * back: the journal is cut at a record boundary and `state.json` becomes the snapshot that was current
 * then. A third function tears the journal's last record, as a kill during an append would.
 */

export type Rebuilt = "rebuilt" | "too-early" | "too-late";

interface Line {
  readonly start: number;
  readonly end: number;
  readonly event: JournaledEvent;
}

function journalLines(journal: string): Line[] {
  const bytes = readFileSync(journal);
  const lines: Line[] = [];
  let start = 0;
  for (let lf = bytes.indexOf(0x0a); lf !== -1; lf = bytes.indexOf(0x0a, start)) {
    const event = JSON.parse(bytes.subarray(start, lf).toString("utf8")) as JournaledEvent;
    lines.push({ start, end: lf + 1, event });
    start = lf + 1;
  }
  return lines;
}

/** Events with no effect on the workspace or the checkpoint store: the next codon's rig still sleeping. */
function isQuiet(event: JournaledEvent): boolean {
  switch (event.type) {
    case "loop.iteration.completed":
    case "budget.summary":
    case "server.idle":
      return true;
    case "info":
      return event.data.message.startsWith("Rig operation");
    case "state.transition":
      return (
        event.data.transitionType === "RunCompleted" ||
        (event.data.transitionType === "CodonTransitioned" &&
          event.data.transition.data.status === "preparing")
      );
    default:
      return false;
  }
}

function lastSeqOf(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const snapshot = JSON.parse(readFileSync(file, "utf8")) as { runState: { lastSeq: number } };
  return snapshot.runState.lastSeq;
}

/** Makes `state.json` the newest snapshot that covers no record past `lastSeq` (none: no snapshot). */
function settleSnapshot(stateDir: string, lastSeq: number): void {
  const current = join(stateDir, "state.json");
  const backup = join(stateDir, "state.json.bak");
  if ((lastSeqOf(current) ?? 0) <= lastSeq) return;
  if ((lastSeqOf(backup) ?? Number.POSITIVE_INFINITY) <= lastSeq) {
    copyFileSync(backup, current);
    return;
  }
  rmSync(current, { force: true });
  rmSync(backup, { force: true });
}

/**
 * The point: `codonId`'s `completed` checkpoint is committed, its `codon.completed` (and the loop
 * report written with it) is not in the journal yet. Or, with `keepCompletion`, the journal write
 * happened and the snapshot write did not.
 */
export function rebuildAroundCompletion(
  journal: string,
  stateDir: string,
  codonId: string,
  keepCompletion: boolean,
): Rebuilt {
  const lines = journalLines(journal);
  const index = lines.findLastIndex(
    (l) => l.event.type === "codon.completed" && l.event.data.codonId === codonId && l.event.data.success,
  );
  const completion = lines[index];
  if (completion === undefined) return "too-early";
  let batchEnd = index + 1;
  while (lines[batchEnd]?.event.type === "loop.iteration.completed") batchEnd++;
  if (!lines.slice(batchEnd).every((l) => isQuiet(l.event))) return "too-late";
  const keep = keepCompletion ? lines[batchEnd - 1] : lines[index - 1];
  if (keep === undefined) return "too-early";
  truncateSync(journal, keep.end);
  settleSnapshot(stateDir, keepCompletion ? completion.event.seq - 1 : keep.event.seq);
  return "rebuilt";
}

/** The id of the torn record, so a test can check the repaired journal never shows it. */
export const TORN_ID = "torn-by-crash-test";

/** A kill in the middle of appending the next record: half a line, no LF. */
export function tearJournalTail(journal: string): void {
  const lines = journalLines(journal);
  const seq = (lines[lines.length - 1]?.event.seq ?? 0) + 1;
  const record = JSON.stringify({
    v: 1,
    id: TORN_ID,
    seq,
    timestamp: new Date(0).toISOString(),
    type: "info",
    data: { message: "this record was being written when the process died" },
  });
  appendFileSync(journal, record.slice(0, Math.floor(record.length / 2)));
}
