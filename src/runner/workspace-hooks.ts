import { CHECKPOINT_NOT_MADE_CODE, type Checkpointer } from "../checkpoint/index.ts";
import type { Clock, CodonContext, EngineHooks, EventSink, HookResult } from "../engine/index.ts";
import { checkpointGlobsOf } from "../engine/rollback/index.ts";
import type { HankFile } from "../hank/schema/index.ts";
import { writeSnapshot } from "../journal/index.ts";
import type { ExecutionPlan } from "../plan/index.ts";
import { buildAgentEnv } from "../workspace/agent-env.ts";
import { type ArchiveEvent, type ArchiveTarget, archivePaths } from "../workspace/archive/index.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";
import { copyOutputFiles } from "../workspace/outputs/index.ts";
import { type RigEvent, runRigSetup } from "../workspace/rig/index.ts";
import { startCheckpointLine } from "./start-checkpoint-line.ts";

export interface WorkspaceHooksInput {
  readonly layout: ExecutionLayout;
  readonly hankDir: string;
  readonly processEnv: Readonly<Record<string, string | undefined>>;
  readonly sink: EventSink;
  readonly clock: Clock;
  readonly checkpointer: Checkpointer;
  readonly ignoreRigFailures: boolean;
  readonly hank: HankFile;
  /** `-o`: where output files go (absolute); outputs and their beforeCopy are skipped without it. */
  readonly outputDir?: string;
  readonly overwriteOutput: boolean;
  /** A restart after a crash or a cancel: the checkpoint to put the workspace back to first. */
  readonly restartFrom?: string;
}

const OK: HookResult = { ok: true };

/** Minimum time between two state snapshots during a run. */
export const SNAPSHOT_INTERVAL_MS = 1000;
/**
 * The largest share of a run's time that snapshot writes may take. A snapshot holds the whole run state,
 * so it grows with the run; writes of a large one are spaced further apart instead of slowing every codon.
 */
export const SNAPSHOT_MAX_TIME_SHARE = 0.05;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The workspace side of a run, plugged into the engine's hooks: rig setup and its checkpoint before a
 * codon, the completed/error checkpoint after it, and the state snapshot at every boundary.
 */
export function createWorkspaceHooks(input: WorkspaceHooksInput): EngineHooks {
  const { sink, checkpointer, layout } = input;
  let nextSnapshotAt = Number.NEGATIVE_INFINITY;
  const emit = (event: RigEvent | ArchiveEvent): void => {
    sink.emitAll([event]);
  };
  return {
    startRun(runId) {
      return startCheckpointLine({
        checkpointer,
        sink,
        runId,
        globs: checkpointGlobsOf(input.hank),
        ...(input.restartFrom !== undefined && { restartFrom: input.restartFrom }),
      });
    },
    async prepareCodon(context: CodonContext, signal: AbortSignal) {
      const { entry, codon } = context;
      const rig = await runRigSetup(
        {
          codonId: entry.runtimeId,
          codonName: codon.name,
          ops: codon.rigSetup ?? [],
          hankDir: input.hankDir,
          agentRoot: layout.agentRoot,
          env: buildAgentEnv(input.processEnv, codon.env),
          ignoreRigFailures: input.ignoreRigFailures,
          deferCompletion: true,
        },
        { clock: input.clock, emit, signal },
      );
      if (!rig.ok) {
        const failure = rig.failures.find((f) => !f.ignored);
        return { ok: false, message: `Rig setup failed: ${failure?.message ?? "aborted"}` };
      }
      const committed = await commit(input, context, "rig-setup", null);
      if (rig.completed !== null)
        sink.emit("rig.setup.completed", { ...rig.completed, createdCheckpoint: committed });
      return OK;
    },
    async finishCodon(context) {
      await commit(input, context, context.success ? "completed" : "error", context.changedPaths);
      if (!context.success) return OK;
      const copied = await copyOutputs(input, context, emit);
      if (!copied.ok) return copied;
      return archiveCodon(input, context, emit);
    },
    async finishLoop({ loopId, runId }) {
      const loop = input.hank.hank.find((item) => item.type === "loop" && item.id === loopId);
      const globs = loop?.type === "loop" ? (loop.archiveOnSuccess ?? []) : [];
      if (globs.length === 0) return OK;
      return archive(input, emit, { codonId: loopId, runId, globs, target: { kind: "loop", loopId } });
    },
    persist(plan: ExecutionPlan) {
      // The journal is the truth and a resume replays it past the snapshot, so the snapshot is only a
      // fast start: written at most once per interval (longer when writing it is slow), and once more
      // when the run ends.
      const startedAt = input.clock.now();
      if (startedAt < nextSnapshotAt) return;
      writeSnapshot(layout.stateDir, { runState: sink.state(), executionPlan: plan });
      const took = input.clock.now() - startedAt;
      nextSnapshotAt = startedAt + Math.max(SNAPSHOT_INTERVAL_MS, took / SNAPSHOT_MAX_TIME_SHARE);
    },
  };
}

type Emit = (event: RigEvent | ArchiveEvent) => void;

async function copyOutputs(
  input: WorkspaceHooksInput,
  context: CodonContext,
  emit: Emit,
): Promise<HookResult> {
  const groups = context.codon.outputFiles ?? [];
  if (input.outputDir === undefined || groups.length === 0) return OK;
  const result = await copyOutputFiles(
    {
      codonId: context.entry.runtimeId,
      groups,
      agentRoot: input.layout.agentRoot,
      outputDir: input.outputDir,
      overwrite: input.overwriteOutput,
      env: buildAgentEnv(input.processEnv, context.codon.env),
    },
    { clock: input.clock, signal: new AbortController().signal, emit },
  );
  if (result.ok) return OK;
  return {
    ok: false,
    message: `Output files of ${context.entry.runtimeId} could not be copied: ${result.failure?.message ?? "aborted"}`,
  };
}

function archiveCodon(input: WorkspaceHooksInput, context: CodonContext, emit: Emit): Promise<HookResult> {
  const globs = context.codon.archiveOnSuccess ?? [];
  if (globs.length === 0) return Promise.resolve(OK);
  const { entry } = context;
  const target: ArchiveTarget =
    entry.loop === undefined
      ? { kind: "codon", codonId: entry.runtimeId }
      : {
          kind: "loop-codon",
          loopId: entry.loop.loopId,
          iteration: entry.loop.iteration,
          runtimeId: entry.runtimeId,
        };
  return archive(input, emit, { codonId: entry.runtimeId, runId: context.runId, globs, target });
}

async function archive(
  input: WorkspaceHooksInput,
  emit: Emit,
  what: { codonId: string; runId: string; globs: readonly string[]; target: ArchiveTarget },
): Promise<HookResult> {
  const result = await archivePaths({ ...what, layout: input.layout }, { clock: input.clock, emit });
  if (result.manifestError !== null) {
    return {
      ok: false,
      message: `Archive of ${what.codonId} could not be recorded: ${result.manifestError}`,
    };
  }
  return OK;
}

/**
 * Commits a checkpoint of the codon's checkpointed files. A failure does not stop the run, but it is
 * journaled as a non-fatal error: a rollback to this point will not be possible.
 */
async function commit(
  input: WorkspaceHooksInput,
  context: CodonContext,
  type: "rig-setup" | "completed" | "error",
  changedPaths: readonly string[] | null,
): Promise<boolean> {
  const codonId = context.entry.runtimeId;
  try {
    await input.checkpointer.commit({
      codonId,
      codonName: context.codon.name,
      type,
      globs: context.codon.checkpointedFiles ?? [],
      ...(changedPaths !== null && { changedPaths }),
    });
    return true;
  } catch (error) {
    input.sink.emit("error", {
      message: `The ${type} checkpoint of ${codonId} could not be created: ${messageOf(error)}`,
      codon: codonId,
      fatal: false,
      severity: "operation",
      ...(type !== "rig-setup" && { code: CHECKPOINT_NOT_MADE_CODE }),
    });
    return false;
  }
}
