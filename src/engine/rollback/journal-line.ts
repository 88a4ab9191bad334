import type { DataOf, JournaledEvent, RunState } from "../../journal/index.ts";
import { forEachEvent, initialRunState, RunStateStore, startsFresh } from "../../journal/index.ts";
import { type LoopReport, loopReportOf } from "../../plan/index.ts";

/** A loop report with the codon whose `codon.completed` it was journaled with (its producer). */
export interface LineReport {
  readonly report: LoopReport;
  readonly producer: string | null;
}

/** What moves the line of checkpoints: a run starting, or a rollback naming its continuation. */
export type LineStep =
  | { readonly kind: "run"; readonly runId: string }
  | { readonly kind: "rollback"; readonly toRun: string; readonly checkpoint: string };

/**
 * The execution's current line, read from the journal: the run state (the reducer's), the runs and
 * rollbacks in journal order (what `checkpointThread` needs), the loop reports still valid (a rollback
 * drops the reports of the codons it undoes), and a rollback that started but never completed.
 */
export interface JournalLine {
  readonly state: RunState;
  readonly steps: readonly LineStep[];
  readonly reports: readonly LineReport[];
  readonly interrupted: DataOf<"rollback.started"> | null;
}

export interface JournalLineReader {
  add(event: JournaledEvent): void;
  line(): JournalLine;
}

/** Folds journal events, oldest first, into the line. The reader owns its arrays; `line()` copies them. */
export function createJournalLineReader(initial: RunState = initialRunState()): JournalLineReader {
  const store = new RunStateStore(initial);
  const steps: LineStep[] = [];
  let reports: LineReport[] = [];
  let interrupted: DataOf<"rollback.started"> | null = null;
  let lastCompleted: string | null = null;
  return {
    add(event) {
      store.apply(event);
      switch (event.type) {
        case "codon.completed":
          lastCompleted = event.data.codonId;
          break;
        case "loop.iteration.completed":
          reports.push({ report: loopReportOf(event.data), producer: lastCompleted });
          break;
        case "rollback.started":
          interrupted = event.data;
          break;
        case "rollback.completed": {
          interrupted = null;
          steps.push({ kind: "rollback", toRun: event.data.toRun, checkpoint: event.data.checkpoint });
          const kept = new Set(store.state.codons.map((codon) => codon.id));
          reports = reports.filter((r) => r.producer === null || kept.has(r.producer));
          break;
        }
        case "state.transition":
          if (event.data.transitionType === "RunStarted") {
            interrupted = null;
            const { data } = event;
            if (startsFresh(data.transition.data)) reports = [];
            steps.push({ kind: "run", runId: data.runId ?? data.resultingState.currentRunId ?? event.id });
          }
          break;
        default:
          break;
      }
    },
    line: () => ({ state: store.detached(), steps: [...steps], reports: [...reports], interrupted }),
  };
}

export function journalLineOf(events: Iterable<JournaledEvent>): JournalLine {
  const reader = createJournalLineReader();
  for (const event of events) reader.add(event);
  return reader.line();
}

/** Reads the whole journal at `path` (a missing journal is an empty line). */
export async function readJournalLine(path: string): Promise<JournalLine> {
  const reader = createJournalLineReader();
  await forEachEvent(path, (event) => reader.add(event));
  return reader.line();
}
