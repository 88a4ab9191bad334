import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { Checkpointer } from "../checkpoint/index.ts";
import type { EngineHooks } from "../engine/index.ts";
import {
  AFTERMATH_TAIL_EVENTS,
  continuationIds,
  interruptedRollbackMessage,
  rollbackAftermath,
} from "../engine/index.ts";
import type { RefusalCode } from "../events/refusals.ts";
import type { CommandConfig } from "../harness/command/index.ts";
import { JournalWriter, loadRunState, type RunState, readTail, writeSnapshot } from "../journal/index.ts";
import { buildPlan } from "../plan/index.ts";
import type { Clock } from "../util/clock.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";
import type { StaleLock } from "../workspace/lock/index.ts";
import { withDataSourceWatch } from "./data-source-hooks.ts";
import { type ExecutionOptions, type ExecutionResult, wantsDurableJournal } from "./execution-options.ts";
import { createHarnesses } from "./harnesses.ts";
import { knownSecretMask } from "./known-secrets.ts";
import type { LoadedHank } from "./load-hank.ts";
import { fenceAllowsWrite, fencedStore, type LockFence } from "./lock-fence.ts";
import { acceptedBy, cleanRestart, needsCleanRestart } from "./recovery/clean-restart.ts";
import { auditJournalInBackground } from "./recovery/journal-audit-report.ts";
import { markedEnv } from "./recovery/leftover-processes.ts";
import { lostJournalProblem, replacedJournalReporter } from "./recovery/lost-journal.ts";
import { recoverCrash } from "./recovery/mark-crashed-run.ts";
import { resumePoint } from "./recovery/resume-point.ts";
import type { RunChannels } from "./run-channels.ts";
import { openRunSink, runWorkspace } from "./run-workspace.ts";
import { createWorkspaceHooks, type WorkspaceHooksInput } from "./workspace-hooks.ts";

export interface LockedRun {
  readonly options: ExecutionOptions;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock: Clock;
  readonly layout: ExecutionLayout;
  readonly loaded: Extract<LoadedHank, { ok: true }>;
  readonly channels: RunChannels;
  /** The lock this run took over from a holder that died, if it did. */
  readonly staleLock: StaleLock | undefined;
  /** Already behind the fence. */
  readonly checkpointer: Checkpointer;
  /** Checked before every journal append and snapshot (see lock-fence.ts). */
  readonly fence: LockFence;
  /** The caller's cancel, and the fence's when the lock is lost. */
  readonly signal: AbortSignal;
  readonly commands?: CommandConfig;
}

/**
 * The part of a run that holds the execution's lock: rebuild the state from the journal, recover a
 * crash, finish or refuse a half-done rollback, find where to resume, run the engine with the
 * workspace hooks, and leave a snapshot of how the run ended.
 */
export async function runLocked(run: LockedRun): Promise<ExecutionResult> {
  const { layout } = run;
  const restored = await loadRunState(layout.stateDir, { journalPath: layout.eventsPath });
  if (run.options.startNew !== true) {
    const lost = await lostJournalProblem(layout, restored, run.checkpointer);
    if (lost !== undefined) return refused("lock-lost", lost, layout);
  }
  const replaced = replacedJournalReporter();
  const writer = JournalWriter.open(layout.eventsPath, {
    durability: wantsDurableJournal(run.options, run.env) ? "boundary" : "os",
    onReplaced: replaced.onReplaced,
    mask: knownSecretMask({
      env: run.env,
      hank: run.loaded.hank,
      hankText: run.loaded.text,
      hankDir: run.loaded.hankDir,
    }),
  });
  let audit: Promise<void> = Promise.resolve();
  try {
    const sink = openRunSink({
      store: fencedStore(writer, run.fence),
      initialState: restored.state,
      channels: run.channels,
      ...(run.options.listeners !== undefined && { listeners: run.options.listeners }),
    });
    replaced.reportTo(sink);
    recoverCrash(sink, run.staleLock, run.layout);
    audit = auditJournalInBackground(layout.eventsPath, sink);
    // After a rollback the next run is the continuation it prepared; a half-done rollback is redone first.
    const aftermath = rollbackAftermath(readTail(layout.eventsPath, AFTERMATH_TAIL_EVENTS).events);
    if (aftermath.kind === "interrupted") {
      return refused(
        "rollback-interrupted",
        interruptedRollbackMessage(aftermath.rollback, layout.executionDir),
        layout,
      );
    }
    const point =
      run.options.newRun === true
        ? { kind: "fresh" as const, plan: buildPlan(run.loaded.hank) }
        : await resumePoint(run.loaded.hank, sink.state(), restored, layout.eventsPath);
    if (point.kind === "invalid") return refused("resume-invalid", point.message, layout);
    if (point.kind === "done" && latestRunCompleted(sink.state())) {
      // A kill after RunCompleted can leave state.json behind the journal; catch it up.
      if (restored.snapshot?.runState.lastSeq !== sink.state().lastSeq) {
        run.fence.check();
        writeSnapshot(layout.stateDir, { runState: sink.state(), executionPlan: point.plan });
      }
      return {
        kind: "nothing-to-do",
        exitCode: 0,
        layout,
        state: sink.state(),
        message: `Resumed completed execution ${layout.executionDir} — nothing to do. All codons already completed. Use --start-new to run fresh.`,
      };
    }
    // After a crash or a cancel mid-codon, the codon re-runs on the files it started from.
    const restart =
      run.options.newRun !== true && aftermath.kind !== "continuation" && needsCleanRestart(sink.state())
        ? await cleanRestart({
            sink,
            checkpointer: run.checkpointer,
            journalPath: layout.eventsPath,
            executionDir: layout.executionDir,
            storeDir: layout.checkpointGitDir,
            accept: (question) => acceptedBy(run.options, question),
          })
        : undefined;
    if (restart?.kind === "refused") return refused("checkpoints-lost", restart.message, layout);
    const restartFrom = restart?.kind === "checkpoint" ? restart.sha : undefined;
    // Every process the run starts carries the execution's mark: a next start ends those a crash left.
    const childrenEnv = markedEnv(run.env, layout.executionDir);
    const runNewId = continuationIds(
      aftermath.kind === "continuation" ? aftermath.runId : undefined,
      runIds(run),
    );
    const result = await runWorkspace({
      hank: run.loaded.hank,
      hankDir: run.loaded.hankDir,
      models: run.loaded.report.models,
      agentRoot: layout.agentRoot,
      env: childrenEnv,
      options: engineOptions(run.options),
      ...(point.kind !== "fresh" && { plan: point.plan }),
      ...(run.options.stopRules !== undefined && { stopRules: run.options.stopRules }),
      ...(run.options.continueOwnSession !== undefined && {
        continueOwnSession: run.options.continueOwnSession,
      }),
      ...(run.options.codonTools !== undefined && { codonTools: run.options.codonTools }),
      ...(run.options.heldPrompts !== undefined && { heldPrompts: run.options.heldPrompts }),
      clock: run.clock,
      newId: runNewId,
      sink,
      harnesses:
        run.options.harnesses ??
        createHarnesses({
          clock: run.clock,
          layout,
          ...(run.commands !== undefined && { commands: run.commands }),
          mayWrite: () => fenceAllowsWrite(run.fence),
        }),
      hooks: fencedHooks(
        run.fence,
        {
          layout,
          hankDir: run.loaded.hankDir,
          processEnv: childrenEnv,
          sink,
          clock: run.clock,
          checkpointer: run.checkpointer,
          ignoreRigFailures: run.options.ignoreRigFailures ?? false,
          hank: run.loaded.hank,
          ...(run.options.outputDir !== undefined && { outputDir: run.options.outputDir }),
          overwriteOutput: run.options.overwriteOutput ?? false,
          ...(restartFrom !== undefined && { restartFrom }),
        },
        () => writer.flush(),
      ),
      channels: run.channels,
      signal: run.signal,
      sentinels: {
        outputsDir: join(layout.stateDir, "sentinels", "outputs"),
        ...(run.options.model !== undefined && { modelOverride: run.options.model }),
      },
    });
    // The run's closing events come after the last codon boundary: snapshot them too, so state.json
    // shows how the run ended without a replay.
    run.fence.check();
    writeSnapshot(layout.stateDir, { runState: sink.state(), executionPlan: result.plan });
    return {
      kind: "ran",
      exitCode: result.exitCode,
      layout,
      runId: result.runId,
      outcome: result.status,
      message: result.message,
      state: sink.state(),
      plan: result.plan,
    };
  } finally {
    await audit;
    writer.close();
    // The git store packs what the run wrote; never rejects.
    await run.checkpointer.close?.();
  }
}

/**
 * The workspace hooks, with the state snapshot behind the fence too. `atBoundary` runs at every codon
 * boundary first: the durable journal's fsync.
 */
function fencedHooks(fence: LockFence, input: WorkspaceHooksInput, atBoundary: () => void): EngineHooks {
  const hooks = withDataSourceWatch(createWorkspaceHooks(input), {
    dataPath: input.layout.dataLink,
    sink: input.sink,
  });
  return {
    ...hooks,
    persist(plan) {
      fence.check();
      atBoundary();
      hooks.persist?.(plan);
    },
  };
}

function engineOptions(options: ExecutionOptions) {
  return {
    headless: options.headless ?? true,
    ...(options.maxCostUsd !== undefined && { maxCostUsd: options.maxCostUsd }),
    ...(options.maxTimeSeconds !== undefined && { maxTimeSeconds: options.maxTimeSeconds }),
    ...(options.agentIdleTimeoutSeconds !== undefined && {
      agentIdleTimeoutSeconds: options.agentIdleTimeoutSeconds,
    }),
  };
}

function runIds(run: LockedRun): () => string {
  return run.options.newId ?? randomUUID;
}

/**
 * Every codon is finished, but "nothing to do" holds only when the latest run recorded its completion:
 * a process killed after its last codon and before `RunCompleted` left a crashed run, and a new run
 * (with nothing left to execute) closes the execution with its budget summary and `RunCompleted`.
 */
function latestRunCompleted(state: RunState): boolean {
  return state.runs[state.runs.length - 1]?.status === "completed";
}

function refused(code: RefusalCode, message: string, layout: ExecutionLayout): ExecutionResult {
  return { kind: "refused", exitCode: 1, code, message, layout };
}
