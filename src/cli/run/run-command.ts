import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createGitCheckpointer } from "../../checkpoint/git/index.ts";
import { createEventSink, runHank, systemClock } from "../../engine/index.ts";
import {
  AFTERMATH_TAIL_EVENTS,
  continuationIds,
  interruptedRollbackMessage,
  rollbackAftermath,
} from "../../engine/rollback/index.ts";
import type { CommandConfig } from "../../harness/command/index.ts";
import { JournalWriter, loadRunState, type RunState, readTail, writeSnapshot } from "../../journal/index.ts";
import type { ExecutionLayout } from "../../workspace/execution-layout.ts";
import { acquireLock, type RuntimeLock } from "../../workspace/lock/index.ts";
import type { CliOptions } from "../cli-options.ts";
import type { RenderOptions } from "../render/style.ts";
import type { CliIo } from "../run-cli.ts";
import { clearStaleGitLocks } from "./clear-stale-git-locks.ts";
import { createHarnesses } from "./harnesses.ts";
import { loadAndValidate } from "./load-and-validate.ts";
import { loadCommands } from "./load-commands.ts";
import { markCrashedRun } from "./mark-crashed-run.ts";
import { openExecution } from "./open-execution.ts";
import { closingLines, progressPrinter } from "./progress-printer.ts";
import { resumePoint } from "./resume-point.ts";
import { selfTestModels } from "./self-test.ts";
import { createWorkspaceHooks } from "./workspace-hooks.ts";

export interface RunIo extends CliIo {
  readonly argv: readonly string[];
  /** Cancels the run (SIGINT); the main binary wires it. */
  readonly signal: AbortSignal;
}

/**
 * Runs a hank (reference 1.12): validate, open the execution, lock it, recover an earlier crash,
 * resume from the saved plan, run, and exit 0 when the run completed, 1 otherwise. Progress goes to
 * stderr; stdout stays quiet.
 */
export async function runHankCommand(options: CliOptions, io: RunIo, render: RenderOptions): Promise<number> {
  const gitProblem = checkGit();
  if (gitProblem !== undefined) return fail(io, gitProblem);
  const loaded = loadAndValidate(options, io.cwd, io.env, io.runtime, render);
  if (!loaded.ok) {
    io.stderr.write(loaded.output);
    return 1;
  }
  const commands = loadCommands(loaded.hankDir, io.cwd);
  if (!commands.ok) return fail(io, commands.message);
  const selfTest = selfTestModels(loaded.report.models.values(), io.env, commands.config);
  if (selfTest.length > 0) {
    return fail(
      io,
      `Self-test failed for ${selfTest.length} model(s):\n${selfTest.join("\n")}\nFix the setup, or dry-run with -m scripted.`,
    );
  }
  const clock = systemClock();
  const opened = await openExecution({
    hankPath: loaded.hankPath,
    hankText: loaded.text,
    dataPath: options.dataPath ?? loaded.hankDir,
    ...(loaded.hank.overrides?.dataHashTimeLimit !== undefined && {
      dataHashTimeLimitMs: loaded.hank.overrides.dataHashTimeLimit,
    }),
    ...(options.execution !== undefined && { execution: options.execution }),
    startNew: options.startNew,
    force: options.force,
    noWipe: false,
    yes: options.yes,
    copy: options.copy,
    interactive: !options.headless && io.stdout.isTTY,
    cwd: io.cwd,
    env: io.env,
    version: io.runtime.version,
    argv: io.argv,
    now: () => clock.now(),
  });
  if (!opened.ok) return fail(io, opened.message);
  for (const note of opened.notes) io.stderr.write(`  ${note}\n`);
  const { layout } = opened;
  const lock = acquireLock(layout.lockPath, { pid: process.pid, runId: "starting", clock });
  if (!lock.ok) return fail(io, lock.message);
  try {
    return await runLocked({
      options,
      io,
      layout,
      lock: lock.lock,
      loaded,
      staleRunId: lock.staleFrom?.runId,
      ...(commands.config !== undefined && { commands: commands.config }),
    });
  } finally {
    lock.lock.release();
  }
}

interface LockedRun {
  readonly options: CliOptions;
  readonly io: RunIo;
  readonly layout: ExecutionLayout;
  readonly lock: RuntimeLock;
  readonly loaded: Extract<ReturnType<typeof loadAndValidate>, { ok: true }>;
  readonly staleRunId: string | undefined;
  readonly commands?: CommandConfig;
}

async function runLocked(run: LockedRun): Promise<number> {
  const { io, layout, loaded, options } = run;
  const clock = systemClock();
  const restored = await loadRunState(layout.stateDir, { journalPath: layout.eventsPath });
  const writer = JournalWriter.open(layout.eventsPath);
  try {
    const sink = createEventSink({
      store: writer,
      initialState: restored.state,
      listeners: [progressPrinter(io.stderr)],
    });
    markCrashedRun(sink, run.staleRunId);
    const staleLocks = clearStaleGitLocks(layout.checkpointGitDir);
    if (staleLocks.length > 0) {
      sink.emit("info", { message: `Removed git lock files left by a crash: ${staleLocks.join(", ")}` });
    }
    // After a rollback the next run is the continuation it prepared; a half-done rollback is redone first.
    const aftermath = rollbackAftermath(readTail(layout.eventsPath, AFTERMATH_TAIL_EVENTS).events);
    if (aftermath.kind === "interrupted") {
      return fail(io, interruptedRollbackMessage(aftermath.rollback, layout.executionDir));
    }
    const point = await resumePoint(loaded.hank, sink.state(), restored, layout.eventsPath);
    if (point.kind === "invalid") return fail(io, point.message);
    if (point.kind === "done" && latestRunCompleted(sink.state())) {
      // A kill after RunCompleted can leave state.json behind the journal; catch it up.
      if (restored.snapshot?.runState.lastSeq !== sink.state().lastSeq) {
        writeSnapshot(layout.stateDir, { runState: sink.state(), executionPlan: point.plan });
      }
      io.stderr.write(
        `Resumed completed execution ${layout.executionDir} — nothing to do. All codons already completed. Use --start-new to run fresh.\n`,
      );
      return 0;
    }
    io.stderr.write(`> execution ${layout.executionDir}\n`);
    const result = await runHank(
      {
        hank: loaded.hank,
        hankDir: loaded.hankDir,
        models: loaded.report.models,
        agentRoot: layout.agentRoot,
        processEnv: io.env,
        options: {
          headless: options.headless,
          ...(options.maxCost !== undefined && { maxCostUsd: options.maxCost }),
          ...(options.maxTime !== undefined && { maxTimeSeconds: options.maxTime }),
          ...(options.shimIdleTimeout !== undefined && { idleTimeoutSeconds: options.shimIdleTimeout }),
        },
        ...(point.kind !== "fresh" && { plan: point.plan }),
      },
      {
        clock,
        newId: continuationIds(aftermath.kind === "continuation" ? aftermath.runId : undefined, randomUUID),
        sink,
        harnesses: createHarnesses({
          clock,
          layout,
          ...(run.commands !== undefined && { commands: run.commands }),
        }),
        signal: io.signal,
        hooks: createWorkspaceHooks({
          layout,
          hankDir: loaded.hankDir,
          processEnv: io.env,
          sink,
          clock,
          checkpointer: createGitCheckpointer({
            gitDir: layout.checkpointGitDir,
            workTree: layout.agentRoot,
            clock,
          }),
          ignoreRigFailures: options.ignoreRigFailures,
          hank: loaded.hank,
          ...(options.output !== undefined && { outputDir: options.output }),
          overwriteOutput: options.overwriteOutput,
        }),
      },
    );
    // The run's closing events come after the last codon boundary: snapshot them too, so state.json
    // shows how the run ended without a replay.
    writeSnapshot(layout.stateDir, { runState: sink.state(), executionPlan: result.plan });
    io.stderr.write(closingLines(sink.state(), layout.executionDir, layout.agentRoot));
    return result.exitCode;
  } finally {
    writer.close();
  }
}

/**
 * Every codon is finished, but "nothing to do" holds only when the latest run recorded its completion:
 * a process killed after its last codon and before `RunCompleted` left a crashed run, and a new run
 * (with nothing left to execute) closes the execution with its budget summary and `RunCompleted`.
 */
function latestRunCompleted(state: RunState): boolean {
  return state.runs[state.runs.length - 1]?.status === "completed";
}

/** Git is required for checkpoints; say so before any directory is touched. */
export function checkGit(): string | undefined {
  try {
    execFileSync("git", ["--version"], { stdio: "ignore" });
    return undefined;
  } catch {
    return "git is required for checkpoints but was not found on PATH. Install git and run again.";
  }
}

function fail(io: CliIo, message: string): number {
  io.stderr.write(`✗ ${message}\n`);
  return 1;
}
