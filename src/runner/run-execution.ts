import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createGitCheckpointer } from "../checkpoint/git/index.ts";
import type { Checkpointer } from "../checkpoint/index.ts";
import type { RunControl } from "../engine/index.ts";
import type { RefusalCode } from "../events/refusals.ts";
import type { HankFile } from "../hank/schema/index.ts";
import type { EventBus } from "../journal/index.ts";
import { startRunTracing } from "../observability/index.ts";
import { systemClock } from "../util/clock.ts";
import { onPath } from "../util/on-path.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";
import { acquireLock } from "../workspace/lock/index.ts";
import { outputDirProblem } from "../workspace/outputs/index.ts";
import type { ExecutionOptions, ExecutionResult } from "./execution-options.ts";
import { faultResult, releaseLockQuietly } from "./fault-report.ts";
import { loadCommands } from "./load-commands.ts";
import { type LoadedHank, loadValidatedHank } from "./load-hank.ts";
import {
  createLockFence,
  fencedCheckpointer,
  type LockFence,
  LockLostError,
  lockNamesRun,
} from "./lock-fence.ts";
import { openExecution } from "./open-execution.ts";
import { executionMarkEnv } from "./recovery/leftover-processes.ts";
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
  /**
   * Makes every checkpoint the run made so far readable through the store by this process's other
   * readers (the execution door's listing, a rollback's check): the run's writer shows them to other
   * processes only at its seals, at most about a second late (`Checkpointer.flush`). Call it before
   * such a read while the run is live; resolves at once before the execution is locked or after the run.
   */
  flushCheckpoints(): Promise<void>;
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
  const live: LiveCheckpointer = {};
  const done = execute(options, channels, onOpened, live)
    // A filesystem fault before the execution was locked (creating or opening it) is a refusal too.
    .catch((error: unknown) => faultResult(error, undefined) ?? Promise.reject(error))
    .finally(() => markOpened(undefined))
    .then(async (result) => {
      await drainBus(channels.events);
      return result;
    });
  const flushCheckpoints = async (): Promise<void> => {
    await live.checkpointer?.flush?.();
  };
  return { control: channels.control, events: channels.events, opened, done, flushCheckpoints };
}

/** The run's checkpointer once the execution is locked (set by `execute`). */
interface LiveCheckpointer {
  checkpointer?: Checkpointer;
}

/** The steps of a start, top to bottom; each refusal names what is wrong and the fix. */
async function execute(
  options: ExecutionOptions,
  channels: RunChannels,
  onOpened: (layout: ExecutionLayout) => void,
  live: LiveCheckpointer,
): Promise<ExecutionResult> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock();
  const loaded = loadValidatedHank({
    hank: options.hank,
    cwd,
    env,
    ...(options.model !== undefined && { model: options.model }),
    ...(options.data !== undefined && { data: options.data }),
  });
  if (!loaded.ok) return invalid(loaded);
  if (options.checkpointer === undefined) {
    const gitProblem = checkGit();
    if (gitProblem !== undefined) return refused("git-missing", gitProblem);
  }
  const commands = loadCommands(loaded.hankDir, cwd);
  if (!commands.ok) return refused("commands-invalid", commands.message);
  const selfTest =
    options.harnesses === undefined
      ? selfTestModels(loaded.report.models.values(), env, commands.config)
      : [];
  if (selfTest.length > 0) {
    return refused(
      "self-test-failed",
      `Self-test failed for ${selfTest.length} model(s):\n${selfTest.join("\n")}\nFix the setup, or dry-run with -m scripted.`,
    );
  }
  const outputProblem = options.outputDir === undefined ? undefined : outputDirProblem(options.outputDir);
  if (outputProblem !== undefined) return refused("output-dir-invalid", outputProblem);
  const opened = await openExecution({
    hankPath: loaded.hankPath,
    hankText: loaded.text,
    codonIds: codonIdsOf(loaded.hank),
    dataPath: options.data ?? loaded.hankDir,
    ...(loaded.hank.overrides?.dataHashTimeLimit !== undefined && {
      dataHashTimeLimitMs: loaded.hank.overrides.dataHashTimeLimit,
    }),
    ...(options.execution !== undefined && { execution: options.execution }),
    startNew: options.startNew ?? false,
    force: options.force ?? false,
    noWipe: options.noWipe ?? false,
    yes: options.yes ?? false,
    copy: options.copy ?? false,
    ...(options.confirm !== undefined && { confirm: options.confirm }),
    cwd,
    env,
    version: options.runtime?.version ?? "library",
    argv: options.runtime?.argv ?? [],
    now: () => clock.now(),
  });
  if (!opened.ok) return refused(opened.code, opened.message);
  const { layout } = opened;
  // A lost lock (see lock-fence.ts) cancels the run, so its agent stops too.
  const lockLost = new AbortController();
  let fence: LockFence | undefined;
  const lock = acquireLock(layout.lockPath, {
    pid: process.pid,
    runId: "starting",
    clock,
    ...(options.port !== undefined && { port: options.port }),
    onHeartbeatProblem: (problem) => {
      if (problem.kind === "lost") fence?.markLost(problem.holder);
    },
  });
  if (!lock.ok) return refused("lock-held", lock.message, layout);
  fence = createLockFence(lock.lock, clock, () => lockLost.abort("lock lost"));
  onOpened(layout);
  options.onOpened?.(layout, opened.notes);
  const tracing = await startRunTracing({
    env,
    options: options.tracing,
    executionPath: layout.executionDir,
    journalPath: layout.eventsPath,
    version: options.runtime?.version ?? "library",
  });
  const listeners = [
    lockNamesRun(lock.lock),
    ...(tracing ? [tracing.onEvent] : []),
    ...(options.listeners ?? []),
  ];
  try {
    const checkpointer = fencedCheckpointer((options.checkpointer ?? gitCheckpointer)(layout, clock), fence);
    live.checkpointer = checkpointer;
    return await runLocked({
      options: { ...options, listeners },
      env,
      clock,
      layout,
      loaded,
      channels,
      staleLock: lock.staleFrom,
      checkpointer,
      fence,
      signal:
        options.signal === undefined ? lockLost.signal : AbortSignal.any([options.signal, lockLost.signal]),
      ...(commands.config !== undefined && { commands: commands.config }),
    });
  } catch (error) {
    if (error instanceof LockLostError) return refused("lock-lost", error.message, layout);
    const fault = faultResult(error, layout);
    if (fault !== undefined) return fault;
    throw error;
  } finally {
    await tracing?.close(new Date(clock.now()));
    releaseLockQuietly(() => lock.lock.release(), layout);
  }
}

function gitCheckpointer(
  layout: ExecutionLayout,
  clock: Parameters<typeof createGitCheckpointer>[0]["clock"],
) {
  return createGitCheckpointer({
    gitDir: layout.checkpointGitDir,
    workTree: layout.agentRoot,
    clock,
    extraEnv: executionMarkEnv(layout.executionDir),
    // A run's writer holds the lock, and every holder recovers unsealed packs first (`recoverCrash`).
    runPack: true,
  });
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

function refused(code: RefusalCode, message: string, layout?: ExecutionLayout): ExecutionResult {
  return { kind: "refused", exitCode: 1, code, message, ...(layout !== undefined && { layout }) };
}

/**
 * Git is required for the default checkpoints; say so before any directory is touched. Git is looked
 * for as spawning `git` will look for it, an executable file named `git` in a directory of PATH: a few
 * `stat`s, where running `git --version` cost every start a process (3 to 4 ms). Windows finds commands
 * through PATHEXT as well (`git.exe`, `git.cmd`): there git is asked for its version.
 */
export function checkGit(): string | undefined {
  return gitOnPath()
    ? undefined
    : "git is required for checkpoints but was not found on PATH. Install git and run again.";
}

function gitOnPath(): boolean {
  if (process.platform !== "win32") return onPath("git", process.env.PATH);
  try {
    execFileSync("git", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** The hank's codon ids in hank order, loop codons included. */
function codonIdsOf(hank: HankFile): string[] {
  return hank.hank.flatMap((item) =>
    item.type === "loop" ? item.codons.map((codon) => codon.id) : [item.id],
  );
}
