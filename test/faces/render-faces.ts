import { progressPrinter } from "../../src/cli/run/progress-printer.ts";
import type { RunOutcome } from "../../src/events/run-outcome.ts";
import { type JournaledEvent, RunStateStore } from "../../src/journal/index.ts";
import { IDLE_ACTIVITY, nextActivity } from "../../src/journal/run-activity.ts";
import { countsText } from "../../src/journal/run-words.ts";
import { summaryLines } from "../../src/tui/summary.ts";
import { initialTuiState } from "../../src/tui/tui-model.ts";
import { reduceFrame } from "../../src/tui/tui-state.ts";
import { ExecutionModel } from "../../src/web/execution/execution-model.ts";

/** What one face says about a run: its codon counts in words, and how the run ended. */
export interface FaceStory {
  readonly counts: string | undefined;
  readonly outcome: RunOutcome | "running" | "none" | "waiting";
}

const HEADLINE = /^[✓✗] Run (completed|failed|aborted|interrupted): (.*)$/m;

/**
 * The headless face: the progress printer fed as the engine feeds it (each event with the state after
 * it), a new printer for each run as each run is a new process; the last summary block is the story.
 * `summaryText` reads a printed summary (the CLI's stderr).
 */
export function headlessStory(events: readonly JournaledEvent[]): FaceStory {
  const printed: string[] = [];
  const newPrinter = () => progressPrinter({ write: (text) => printed.push(text) });
  let printer = newPrinter();
  const store = new RunStateStore();
  for (const event of events) {
    if (event.type === "state.transition" && event.data.transitionType === "RunStarted")
      printer = newPrinter();
    printer(event, store.apply(event).state);
  }
  return summaryText(printed.join(""));
}

export function summaryText(text: string): FaceStory {
  const lines = [...text.matchAll(new RegExp(HEADLINE.source, "gm"))];
  const last = lines.at(-1);
  if (last === undefined) return { counts: undefined, outcome: "none" };
  return { counts: last[2], outcome: last[1] as RunOutcome };
}

/** The TUI (and `--attach`): the frames folded by the TUI's reducer; the summary box's Codons line. */
export function tuiStory(events: readonly JournaledEvent[]): FaceStory {
  let state = initialTuiState(0);
  for (const event of events) state = reduceFrame(state, { kind: "event", event }, 0);
  const box = summaryLines(state);
  const codons = box?.lines.find((line) => line.startsWith("Codons"));
  return {
    counts: codons?.replace(/^Codons +/, ""),
    outcome:
      state.outcome?.kind ?? (state.parked !== undefined ? "waiting" : state.running ? "running" : "none"),
  };
}

/** The web page: its model folded over the events; the counts it prints and its banner's outcome. */
export function webStory(events: readonly JournaledEvent[]): FaceStory {
  const model = new ExecutionModel();
  for (const event of events) model.apply(event);
  return {
    counts: model.counts.total === 0 ? undefined : countsText(model.counts),
    outcome: model.outcome.kind,
  };
}

/** The server's status: whether it still counts a run as live. */
export function serverLive(events: readonly JournaledEvent[]): boolean {
  return events.reduce(nextActivity, IDLE_ACTIVITY).live;
}
