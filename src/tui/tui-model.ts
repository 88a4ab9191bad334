import type { RunOutcome } from "../events/run-outcome.ts";
import type { DataOf } from "../journal/index.ts";
import { countCodons, type RunCounts } from "../journal/run-counts.ts";
import { type CostSource, RunViewFold } from "../journal/run-view.ts";

/**
 * What the TUI shows, as data: the timeline, the running codon and its activity, the phase for the
 * heartbeat, the waiting message, the totals, the budget and the outcome. `tui-state.ts` derives it
 * from the server's frames; the view draws it.
 */

/** How a line is coloured (when colour is on). */
export type Tone = "ok" | "fail" | "warn" | "info" | "muted";

/** A line of the timeline: printed once, above the live area, and never redrawn. */
export interface LogLine {
  readonly key: number;
  readonly text: string;
  readonly tone: Tone;
}

/** What the live area shows of the running codon's work: text, thinking, tool calls, rig output. */
export interface ActivityLine {
  readonly kind: "text" | "thinking" | "tool" | "rig";
  readonly text: string;
  /** For a tool call: its id (to mark it done) and whether it succeeded, once its result came. */
  readonly toolUseId?: string;
  readonly ok?: boolean;
}

export interface RunningCodon {
  readonly id: string;
  readonly name: string;
  readonly attempt: number;
  /** When the attempt started (its event's timestamp, ms since the epoch). */
  readonly since: number;
}

/** What the run is doing, for the heartbeat after a silence. */
export type Phase = "starting" | "rig" | "model" | "tool" | "sentinels" | "between" | "parked" | "ended";

export interface ServerInfo {
  readonly executionPath: string;
  readonly agentRootPath: string;
  readonly outputDirectory?: string;
  readonly port: number;
}

/** The run view's counts and totals, as the TUI shows them. */
export interface Totals extends RunCounts {
  readonly costUsd: number;
  readonly costSource: CostSource;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface Outcome {
  readonly kind: RunOutcome;
  /** From the run's start to its end, by the events' timestamps; unknown without the start. */
  readonly durationMs: number | undefined;
}

/**
 * The timeline, append-only and persistent: states share one array and each sees its first `length`
 * lines, so appending is a push (a copy only when an older state is extended), however long the run.
 */
export interface Timeline {
  readonly lines: readonly LogLine[];
  readonly length: number;
}

export interface TuiState {
  /**
   * The run view (`journal/run-view.ts`), shared by every state of one TUI and moved only forward:
   * the counts, totals, running codon, parking and outcome below are read from it after each event.
   */
  readonly run: RunViewFold;
  readonly server: ServerInfo | undefined;
  readonly connection: "open" | "closed";
  readonly log: Timeline;
  readonly running: RunningCodon | undefined;
  readonly activity: readonly ActivityLine[];
  readonly lastRigLine: string | undefined;
  readonly phase: Phase;
  /** Arrival time of the last frame, on the TUI's clock: the heartbeat counts the silence from it. */
  readonly lastEventAt: number;
  /** The `RunStarted` event's timestamp (ms since the epoch). */
  readonly runStartedAt: number | undefined;
  /** The `server.idle` message while the run waits for a command. */
  readonly parked: string | undefined;
  readonly totals: Totals;
  readonly budget: DataOf<"budget.summary"> | undefined;
  readonly outcome: Outcome | undefined;
  /** Codons that completed on the current line: the rollback menu's choices, oldest first. */
  readonly rollbackTargets: readonly string[];
  /** The last journaled seq applied: events at or below it (history overlaps) are ignored. */
  readonly lastSeq: number;
}

/** Activity lines kept for the running codon. */
export const ACTIVITY_LINES = 6;

export function initialTuiState(now: number): TuiState {
  return {
    run: new RunViewFold(),
    server: undefined,
    connection: "open",
    running: undefined,
    lastRigLine: undefined,
    runStartedAt: undefined,
    parked: undefined,
    budget: undefined,
    outcome: undefined,
    log: { lines: [], length: 0 },
    activity: [],
    phase: "starting",
    lastEventAt: now,
    totals: {
      ...countCodons([]),
      costUsd: 0,
      costSource: "none",
      inputTokens: 0,
      outputTokens: 0,
    },
    rollbackTargets: [],
    lastSeq: 0,
  };
}

export function pushActivity(state: TuiState, line: ActivityLine): TuiState {
  return { ...state, activity: [...state.activity, line].slice(-ACTIVITY_LINES) };
}

export function appendLog(state: TuiState, text: string, tone: Tone): TuiState {
  const { lines, length } = state.log;
  const shared = lines.length === length ? (lines as LogLine[]) : lines.slice(0, length);
  shared.push({ key: length, text, tone });
  return { ...state, log: { lines: shared, length: length + 1 } };
}

/**
 * The timeline's lines as this state sees them (possibly the shared array itself: copy it where a new
 * array must mark a change, as for ink's `Static`).
 */
export function timelineOf(state: TuiState): readonly LogLine[] {
  const { lines, length } = state.log;
  return lines.length === length ? lines : lines.slice(0, length);
}
