import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createGitCheckpointer } from "../checkpoint/git/index.ts";
import type { RunControl } from "../engine/index.ts";
import type { EventBus } from "../journal/index.ts";
import { systemClock } from "../util/clock.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";
import { acquireLock } from "../workspace/lock/index.ts";
import type { ExecutionOptions, ExecutionResult } from "./execution-options.ts";
import { loadCommands } from "./load-commands.ts";
import { type LoadedHank, loadValidatedHank } from "./load-hank.ts";
import { openExecution } from "./open-execution.ts";
import { createRunChannels, drainBus, type RunChannels } from "./run-channels.ts";
import { runLocked } from "./run-locked.ts";
import { selfTestModels } from "./self-test.ts";

/** A started execution: steer it with `control`, await `done` for how it ended. */
export interface ExecutionHandle {
  /** The run's inbox (pause, resume, skip, redo, start, retry, stop), read at codon boundaries. */
  readonly control: RunControl;
  /**
   * Every journaled event, live. Subscribe at any time; `fromSeq` catches up from the journal first
   * (once the execution is open), then goes on live, with no gap and no duplicate.
   */
  readonly events: EventBus;
  /** Resolves once the execution directory is open and locked (undefined when the start was refused). */
  readonly opened: Promise<ExecutionLayout | undefined>;
  readonly done: Promise<ExecutionResult>;
}

/**
 * Runs a hank for real, the one way every face does (CLI, test kit, bench, library, server, daemon):
 * validate, check git and the harnesses, open or resume the execution, lock it, recover an earlier
 * crash, then run the engine with the workspace hooks (rigs, checkpoints, outputs, archives), the
 * journal and its snapshots. Settles with how the request ended; throws only on a bug.
 */
export function runExecution(options: ExecutionOptions): Promise<ExecutionResult> {
  return startExecution(options).done;
}

/** `runExecution`, returned at once with the run's control and a promise of its directory. */
export function startExecution(options: ExecutionOptions): ExecutionHandle {
  let journalPath: string | undefined;
  const channels = createRunChannels(options.newId ?? randomUUID, () => journalPath);
  let markOpened: (layout: ExecutionLayout | undefined) => void = () => undefined;
  const opened = new Promise<ExecutionLayout | undefined>((resolve) => {
    markOpened = resolve;
  });
  const onOpened = (layout: ExecutionLayout): void => {
    journalPath = layout.eventsPath;
    markOpened(layout);
  };
  const done = execute(options, channels, onOpened)
    .finally(() => markOpened(undefined))
    .then(async (result) => {
      await drainBus(channels.events);
      return result;
    });
  return { control: channels.control, events: channels.events, opened, done };
}

/** The steps of a start, top to bottom; each refusal names what is wrong and the fix. */
async function execute(
  options: ExecutionOptions,
  channels: RunChannels,
  onOpened: (layout: ExecutionLayout) => void,
): Promise<ExecutionResult> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock();
  const loaded = loadValidatedHank({
    hank: options.hank,
    cwd,
    env,
    ...(options.model !== undefined && { model: options.model }),
  });
  if (!loaded.ok) return invalid(loaded);
  if (options.checkpointer === undefined) {
    const gitProblem = checkGit();
    if (gitProblem !== undefined) return refused(gitProblem);
  }
  const commands = loadCommands(loaded.hankDir, cwd);
  if (!commands.ok) return refused(commands.message);
  const selfTest = selfTestModels(loaded.report.models.values(), env, commands.config);
  if (selfTest.length > 0) {
    return refused(
      `Self-test failed for ${selfTest.length} model(s):\n${selfTest.join("\n")}\nFix the setup, or dry-run with -m scripted.`,
    );
  }
  const opened = await openExecution({
    hankPath: loaded.hankPath,
    hankText: loaded.text,
    dataPath: options.data ?? loaded.hankDir,
    ...(loaded.hank.overrides?.dataHashTimeLimit !== undefined && {
      dataHashTimeLimitMs: loaded.hank.overrides.dataHashTimeLimit,
    }),
    ...(options.execution !== undefined && { execution: options.execution }),
    startNew: options.startNew ?? false,
    force: options.force ?? false,
    noWipe: false,
    yes: options.yes ?? false,
    copy: options.copy ?? false,
    ...(options.confirm !== undefined && { confirm: options.confirm }),
    cwd,
    env,
    version: options.runtime?.version ?? "library",
    argv: options.runtime?.argv ?? [],
    now: () => clock.now(),
  });
  if (!opened.ok) return refused(opened.message);
  const { layout } = opened;
  const lock = acquireLock(layout.lockPath, {
    pid: process.pid,
    runId: "starting",
    clock,
    ...(options.port !== undefined && { port: options.port }),
  });
  if (!lock.ok) return refused(lock.message, layout);
  onOpened(layout);
  options.onOpened?.(layout, opened.notes);
  try {
    return await runLocked({
      options,
      env,
      clock,
      layout,
      loaded,
      channels,
      staleRunId: lock.staleFrom?.runId,
      checkpointer: (options.checkpointer ?? gitCheckpointer)(layout, clock),
      ...(commands.config !== undefined && { commands: commands.config }),
    });
  } finally {
    lock.lock.release();
  }
}

function gitCheckpointer(
  layout: ExecutionLayout,
  clock: Parameters<typeof createGitCheckpointer>[0]["clock"],
) {
  return createGitCheckpointer({ gitDir: layout.checkpointGitDir, workTree: layout.agentRoot, clock });
}

function invalid(loaded: Extract<LoadedHank, { ok: false }>): ExecutionResult {
  return {
    kind: "invalid",
    exitCode: 1,
    hankPath: loaded.hankPath,
    ...(loaded.loadIssue !== undefined && { loadIssue: loaded.loadIssue }),
    ...(loaded.position !== undefined && { position: loaded.position }),
    ...(loaded.report !== undefined && { report: loaded.report }),
  };
}

function refused(message: string, layout?: ExecutionLayout): ExecutionResult {
  return { kind: "refused", exitCode: 1, message, ...(layout !== undefined && { layout }) };
}

/** Git is required for the default checkpoints; say so before any directory is touched. */
export function checkGit(): string | undefined {
  try {
    execFileSync("git", ["--version"], { stdio: "ignore" });
    return undefined;
  } catch {
    return "git is required for checkpoints but was not found on PATH. Install git and run again.";
  }
}
