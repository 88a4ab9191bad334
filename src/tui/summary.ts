import type { RunOutcome } from "../events/run-outcome.ts";
import type { DataOf } from "../journal/index.ts";
import {
  costNote,
  countsText,
  leftUndoneText,
  TOKENS_NOT_REPORTED,
  tokensReported,
} from "../journal/run-words.ts";
import { count, dollars, seconds } from "./text.ts";
import type { TuiState } from "./tui-model.ts";

const TITLES: Readonly<Record<RunOutcome, string>> = {
  completed: "Run Complete",
  failed: "Run Failed",
  aborted: "Run Aborted",
  interrupted: "Run Interrupted",
};

/** The final box: its title and lines, once the run has an outcome. Pure. */
export function summaryLines(
  state: TuiState,
): { readonly title: string; readonly lines: string[] } | undefined {
  const { outcome, totals, server } = state;
  if (outcome === undefined) return undefined;
  const title = TITLES[outcome.kind];
  const lines = [
    `Codons     ${countsText(totals)}`,
    `Tokens     ${tokensReported(totals.costSource) ? `${count(totals.inputTokens)} in, ${count(totals.outputTokens)} out` : TOKENS_NOT_REPORTED}`,
    `Cost       ${dollars(totals.costUsd)}${costNote(totals.costSource)}`,
    `Time       ${outcome.durationMs === undefined ? "-" : seconds(outcome.durationMs)}`,
  ];
  const undone = leftUndoneText(state.run.view().state.codons);
  if (undone !== undefined) lines.push(`Undone     ${undone}`);
  if (server !== undefined && server.agentRootPath !== "") lines.push(`Workspace  ${server.agentRootPath}`);
  if (server?.outputDirectory !== undefined) lines.push(`Outputs    ${server.outputDirectory}`);
  if (server !== undefined && server.executionPath !== "" && outcome.kind !== "completed") {
    lines.push(`Resume     hankweave --execution ${server.executionPath}`);
  }
  return { title, lines };
}

/**
 * The budget table: one row per scope with a limit (the run, then each limited codon), spent / limit
 * per currency; a currency without a limit shows what was spent. Pure.
 */
export function budgetRows(summary: DataOf<"budget.summary">): string[][] {
  const header = ["Scope", "Dollars", "Time", "Output tokens"];
  const run = [
    "run",
    pair(dollars(summary.totals.actualDollars), summary.ceiling.maxDollars, dollars),
    pair(seconds(summary.totals.actualTimeSeconds * 1000), summary.ceiling.maxTimeSeconds, (s) =>
      seconds(s * 1000),
    ),
    summary.totals.actualOutputTokens === undefined ? "-" : count(summary.totals.actualOutputTokens),
  ];
  const limited = summary.rows.filter(
    (row) =>
      row.budget.maxDollars !== undefined ||
      row.budget.maxTimeSeconds !== undefined ||
      row.budget.maxOutputTokens !== undefined,
  );
  const rows = limited.map((row) => [
    `${row.codonId}${row.budgetExceeded ? " (exceeded)" : ""}`,
    pair(dollars(row.actual.dollars), row.budget.maxDollars, dollars),
    pair(seconds(row.actual.timeSeconds * 1000), row.budget.maxTimeSeconds, (s) => seconds(s * 1000)),
    pair(count(row.actual.outputTokens), row.budget.maxOutputTokens, count),
  ]);
  return [header, run, ...rows];
}

function pair(spent: string, limit: number | undefined, format: (n: number) => string): string {
  return limit === undefined ? spent : `${spent} / ${format(limit)}`;
}

/** Lays rows out in columns separated by two spaces. */
export function tableText(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  return rows.map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd(),
  );
}
