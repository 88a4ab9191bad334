import { CHECKPOINT_NOT_MADE_CODE } from "../../checkpoint/index.ts";
import type { DataOf, JournaledEvent, RunState } from "../../journal/index.ts";
import { forEachEvent, initialRunState, RunStateStore, startsFresh } from "../../journal/index.ts";
import { type LoopReport, loopReportOf } from "../../plan/index.ts";
import { ROLLBACK_ABANDONED_CODE } from "./rollback-types.ts";

/** A loop report with the codon whose `codon.completed` it was journaled with (its producer). */
export interface LineReport {
  readonly report: LoopReport;
  readonly producer: string | null;
}

/**
 * What moves the line of checkpoints: a run starting, or a rollback naming its continuation. A run's
 * `base` is the checkpoint its line started from, when the journal says so (`InitialCheckpointSet`):
 * a restart after a crash starts from the last checkpoint of a finished codon, not from the tip.
 */
export type LineStep =
  | {
      readonly kind: "run";
      readonly runId: string;
      readonly base?: string;
      /** A fresh start from the first codon (a Loop's next generation): earlier codons do not count. */
      readonly fresh?: true;
    }
  | { readonly kind: "rollback"; readonly toRun: string; readonly checkpoint: string };

/** The transition that journals where a run's line of checkpoints starts (`transition.data.checkpoint`). */
export const LINE_BASE_TRANSITION = "InitialCheckpointSet";

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
  /**
   * Finished codons whose end could not be checkpointed, journaled after the last finished codon whose
   * end was (oldest first). A restart that walked back to a checkpoint would undo their files, and
   * they will not run again.
   */
  readonly unsavedEnds: readonly string[];
  /** Finished codons whose end was checkpointed (no failure journaled): the store must hold one of theirs. */
  readonly savedEnds: readonly string[];
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
  const unsaved = createUnsavedEnds();
  return {
    add(event) {
      store.apply(event);
      unsaved.add(event);
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
        case "error":
          if (event.data.code === ROLLBACK_ABANDONED_CODE) interrupted = null;
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
            const fresh = startsFresh(data.transition.data);
            if (fresh) reports = [];
            const runId = data.runId ?? data.resultingState.currentRunId ?? event.id;
            steps.push({ kind: "run", runId, ...(fresh && { fresh: true as const }) });
          } else if (event.data.transitionType === LINE_BASE_TRANSITION) {
            setBase(steps, event.data.runId, event.data.transition.data.checkpoint);
          }
          break;
        default:
          break;
      }
    },
    line: () => ({
      state: store.detached(),
      steps: [...steps],
      reports: [...reports],
      interrupted,
      unsavedEnds: unsaved.ids(),
      savedEnds: unsaved.saved(),
    }),
  };
}

/**
 * Folds `JournalLine.unsavedEnds`. A finished codon's end checkpoint holds every file before it, so it
 * clears the list; so do a rollback and a fresh start, which undo the codons before them.
 */
function createUnsavedEnds(): { add(event: JournaledEvent): void; ids(): string[]; saved(): string[] } {
  let ids: string[] = [];
  const saved = new Set<string>();
  let notMade: string | undefined;
  return {
    add(event) {
      if (event.type === "error" && event.data.code === CHECKPOINT_NOT_MADE_CODE) notMade = event.data.codon;
      else if (event.type === "codon.completed") {
        const { codonId, success, failureIgnored } = event.data;
        if (success || failureIgnored === true) {
          ids = notMade === codonId ? [...ids, codonId] : [];
          if (notMade === codonId) saved.delete(codonId);
          else saved.add(codonId);
        }
        notMade = undefined;
      } else if (event.type === "rollback.completed") ids = [];
      else if (event.type === "state.transition" && event.data.transitionType === "RunStarted") {
        if (startsFresh(event.data.transition.data)) ids = [];
      }
    },
    ids: () => [...ids],
    saved: () => [...saved],
  };
}

/** Records the base of the run's step (its latest start); a base for an unknown run is ignored. */
function setBase(steps: LineStep[], runId: string | undefined, checkpoint: unknown): void {
  if (typeof checkpoint !== "string") return;
  const index = steps.findLastIndex((step) => step.kind === "run" && step.runId === runId);
  const step = steps[index];
  if (step?.kind === "run" && step.base === undefined) steps[index] = { ...step, base: checkpoint };
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
