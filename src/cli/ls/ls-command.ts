import { statSync } from "node:fs";
import { homedir } from "node:os";
import { readSnapshot } from "../../journal/index.ts";
import { inspectLock } from "../../runner/index.ts";
import { executionBaseDir, listExecutions } from "../../workspace/execution/index.ts";
import { executionLayout } from "../../workspace/execution-layout.ts";
import type { CliIo } from "../cli-io.ts";
import type { LsOptions } from "../rollback/subcommand-command.ts";

/** One execution as `hankweave ls` lists it. */
export interface ExecutionRow {
  readonly execution: string;
  readonly hank: string;
  readonly data: string;
  /** `running` while a live process holds its lock, else its last run's outcome, or `new`. */
  readonly state: string;
  /** The journal's last write (ISO 8601), else the execution's creation. */
  readonly lastActivity: string;
  readonly costUsd: number;
}

/**
 * `hankweave ls [--json]`: the executions of the executions directory (`HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR`,
 * default `~/.hankweave-executions`), oldest first, with their hank, data, state, last activity and
 * cost. Reads only: the state snapshot and the lock, never the whole journal.
 */
export function runLsCommand(options: LsOptions, io: CliIo): number {
  const base = executionBaseDir({ env: io.env, homeDir: io.env.HOME ?? homedir(), cwd: io.cwd });
  const survey = listExecutions(base);
  const rows = survey.executions.map((execution) => rowOf(execution.dir, execution.meta));
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ base, executions: rows, skipped: survey.skipped })}\n`);
    return 0;
  }
  if (rows.length === 0) io.stdout.write(`No executions in ${base}.\n`);
  else io.stdout.write(renderRows(rows));
  for (const skipped of survey.skipped) io.stderr.write(`! skipped ${skipped}\n`);
  return 0;
}

function rowOf(
  dir: string,
  meta: { readonly hankPath: string; readonly resolvedSourceDataPath: string; readonly createdAt: string },
): ExecutionRow {
  const layout = executionLayout(dir);
  const snapshot = readSnapshot(layout.stateDir);
  const runState = snapshot.found ? snapshot.snapshot.runState : undefined;
  const lock = inspectLock(layout.lockPath, { pid: -1, now: Date.now() });
  const lastRun = runState?.runs.at(-1);
  const state = lock.status === "live" ? "running" : (lastRun?.status ?? "new");
  const journal = statSync(layout.eventsPath, { throwIfNoEntry: false });
  return {
    execution: dir,
    hank: meta.hankPath,
    data: meta.resolvedSourceDataPath,
    state,
    lastActivity: journal === undefined ? meta.createdAt : journal.mtime.toISOString(),
    costUsd: runState?.totals.cost ?? 0,
  };
}

function renderRows(rows: readonly ExecutionRow[]): string {
  const header = ["STATE", "LAST ACTIVITY", "COST", "HANK", "EXECUTION"];
  const cells = rows.map((row) => [
    row.state,
    row.lastActivity.slice(0, 19).replace("T", " "),
    `$${row.costUsd.toFixed(4)}`,
    row.hank,
    row.execution,
  ]);
  const widths = header.map((title, at) =>
    Math.max(title.length, ...cells.map((cell) => cell[at]?.length ?? 0)),
  );
  const lines = [header, ...cells].map((cell) =>
    cell
      .map((text, at) => text.padEnd(widths[at] ?? 0))
      .join("  ")
      .trimEnd(),
  );
  return `${lines.join("\n")}\n`;
}
