import { join } from "node:path";
import type { JournaledEvent } from "../events/events.ts";
import { forEachEvent, type ReadOptions, readSince } from "./journal-reader.ts";
import type { RunState } from "./run-state.ts";
import { RunStateStore } from "./run-state-store.ts";
import { readSnapshot, type StateSnapshot } from "./state-snapshot.ts";

/** `<stateDir>/events/events.jsonl`, the journal's place in the execution layout (reference 1.13). */
export function journalPathIn(stateDir: string): string {
  return join(stateDir, "events", "events.jsonl");
}

export interface LoadRunStateOptions extends ReadOptions {
  /** Defaults to `journalPathIn(stateDir)`. */
  readonly journalPath?: string;
}

export interface LoadedRunState {
  readonly state: RunState;
  /** `snapshot+journal`: the snapshot plus the journal events after it; `journal`: a full replay. */
  readonly source: "snapshot+journal" | "journal";
  /** The snapshot that was read, even when its run state lost to the journal (its plan may still help). */
  readonly snapshot: StateSnapshot | null;
  /** Journal events applied on top of the starting state. */
  readonly applied: number;
  readonly skipped: number;
  readonly torn: boolean;
  /** Why a snapshot file was not used, and any disagreement with the journal. */
  readonly problems: string[];
}

/**
 * Rebuilds the run state of `stateDir` (`<exec>/.hankweave`). Reconciliation, where the journal wins:
 * 1. Read `state.json` (or `state.json.bak`). None: replay the whole journal.
 * 2. Read the journal backwards down to the snapshot's `lastSeq`. When the record found there has the
 *    snapshot's `lastSeq` and `lastEventId` (or both are at 0), apply only the newer events.
 * 3. Otherwise the two disagree (the journal lost its tail, was replaced, or the snapshot is from another
 *    journal): the snapshot's run state is discarded and the whole journal is replayed.
 */
export async function loadRunState(
  stateDir: string,
  options: LoadRunStateOptions = {},
): Promise<LoadedRunState> {
  const journalPath = options.journalPath ?? journalPathIn(stateDir);
  const read = readSnapshot(stateDir);
  const problems = [...read.problems];
  const snapshot = read.found ? read.snapshot : null;
  if (snapshot !== null) {
    const base = snapshot.runState;
    const since = readSince(journalPath, base.lastSeq, options);
    const disagreement = disagreementOf(base, since.boundary);
    if (disagreement === null) {
      const store = new RunStateStore(base);
      for (const event of since.events) store.apply(event);
      const { state } = store;
      const { skipped, torn } = since;
      return {
        state,
        source: "snapshot+journal",
        snapshot,
        applied: since.events.length,
        skipped,
        torn,
        problems,
      };
    }
    problems.push(`${read.found ? read.file : "state.json"} disagrees with the journal: ${disagreement}`);
  }
  const store = new RunStateStore();
  const summary = await forEachEvent(journalPath, (event) => store.apply(event), options);
  const { count, skipped, torn } = summary;
  return { state: store.state, source: "journal", snapshot, applied: count, skipped, torn, problems };
}

/** Null when the journal holds, at the snapshot's position, the very event the snapshot ended on. */
function disagreementOf(base: RunState, boundary: JournaledEvent | null): string | null {
  if (base.lastSeq === 0) return null;
  if (boundary === null)
    return `the journal has no event at or before seq ${base.lastSeq}; replayed the journal`;
  if (boundary.seq !== base.lastSeq) {
    return `the journal has no event ${base.lastSeq} (found ${boundary.seq}); replayed the journal`;
  }
  if (boundary.id !== base.lastEventId) {
    return `event ${base.lastSeq} is '${boundary.id}' in the journal, not '${base.lastEventId}'; replayed the journal`;
  }
  return null;
}
