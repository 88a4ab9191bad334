import type { RunOutcome } from "../../events/run-outcome.ts";
import { isTerminalCodonStatus, type RunState } from "../../journal/index.ts";
import type { CostSource, RunView } from "../../journal/run-view.ts";
import {
  costNote,
  countsText,
  leftUndoneText,
  OUTCOME_TITLES,
  TOKENS_NOT_REPORTED,
  tokensReported,
} from "../../journal/run-words.ts";
import { groupThousands } from "../../util/group-thousands.ts";

/**
 * The lines a headless run prints about itself besides its events: the summary when it ends and the
 * heartbeat while it is quiet. Pure: every fact comes in as an argument.
 */

/** `850ms`, `42s`, `1m 05s`, `1h 02m`: short enough for a status line, exact enough to compare. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

function count(n: number): string {
  return groupThousands(n);
}

export type { CostSource };

function headline(outcome: RunOutcome): string {
  return `${outcome === "completed" ? "✓" : "✗"} ${OUTCOME_TITLES[outcome]}`;
}

/** The summary block of an ended run: how it ended, its codons, tokens, cost and time. */
export function renderRunSummary(view: RunView, outcome: RunOutcome, elapsedMs: number): string[] {
  const { totals } = view.state;
  const cache =
    totals.cacheReadTokens + totals.cacheCreationTokens > 0
      ? ` (cache: ${count(totals.cacheReadTokens)} read, ${count(totals.cacheCreationTokens)} written)`
      : "";
  return [
    `${headline(outcome)}: ${countsText(view.counts)}`,
    tokensReported(view.costSource)
      ? `  Tokens:    ${count(totals.inputTokens)} in, ${count(totals.outputTokens)} out${cache}`
      : `  Tokens:    ${TOKENS_NOT_REPORTED}`,
    `  Cost:      $${totals.cost.toFixed(4)}${costNote(view.costSource)}`,
    `  Elapsed:   ${formatDuration(elapsedMs)}`,
    ...undoneLine(view),
    ...dataSourceLine(view.dataSourceChangedBy),
  ];
}

/** Said only when a spent run ceiling left work undone, with how to get it done. */
function undoneLine(view: RunView): string[] {
  const undone = leftUndoneText(view.state.codons);
  if (undone === undefined) return [];
  return [`  Undone:    ${undone} (raise the ceiling and run the execution again to do it)`];
}

/** Said only when it happened: the agent changed the data it was told is read-only. */
function dataSourceLine(codons: readonly string[] | undefined): string[] {
  if (codons === undefined || codons.length === 0) return [];
  return [
    `  Data:      the read-only data source changed during ${codons.join(", ")} (see the warnings above)`,
  ];
}

/** The last tool call the agent made, as the heartbeat shows it. */
export interface LastTool {
  readonly name: string;
  /** Its path or command, shortened, secrets removed. */
  readonly target?: string;
  readonly at: number;
}

export interface HeartbeatInput {
  readonly state: RunState;
  readonly now: number;
  readonly startedAt: number;
  readonly lastTool: LastTool | undefined;
  /** The run is parked (a retriable failure waits for retry, skip or stop). */
  readonly parked: boolean;
}

/** One line after a quiet spell: what runs now, for how long the run has gone, the agent's last tool. */
export function renderHeartbeat(input: HeartbeatInput): string {
  const parts = [`… ${formatDuration(input.now - input.startedAt)} elapsed`, phaseOf(input)];
  const tool = input.lastTool;
  if (tool !== undefined) {
    const target = tool.target === undefined ? "" : ` ${tool.target}`;
    parts.push(`last tool: ${tool.name}${target} (${formatDuration(input.now - tool.at)} ago)`);
  }
  return parts.join(" · ");
}

function phaseOf(input: HeartbeatInput): string {
  if (input.parked) return "parked: waiting for retry, skip or stop";
  const active = [...input.state.codons].reverse().find((c) => !isTerminalCodonStatus(c.status));
  if (active === undefined) return "between codons";
  const attempt = active.attempts > 0 ? `, attempt ${active.attempts + 1}` : "";
  return `${active.id} ${active.status}${attempt}`;
}
