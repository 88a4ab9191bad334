import type { Checkpointer } from "../../checkpoint/index.ts";
import type { CodonContext, EngineHooks, EventSink, HookResult } from "../../engine/index.ts";
import type { Clock } from "../../engine/index.ts";
import { writeSnapshot } from "../../journal/index.ts";
import type { ExecutionPlan } from "../../plan/index.ts";
import { buildAgentEnv } from "../../workspace/agent-env.ts";
import type { ExecutionLayout } from "../../workspace/execution-layout.ts";
import { type RigEvent, runRigSetup } from "../../workspace/rig/index.ts";

export interface WorkspaceHooksInput {
  readonly layout: ExecutionLayout;
  readonly hankDir: string;
  readonly processEnv: Readonly<Record<string, string | undefined>>;
  readonly sink: EventSink;
  readonly clock: Clock;
  readonly checkpointer: Checkpointer;
  readonly ignoreRigFailures: boolean;
}

const OK: HookResult = { ok: true };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The workspace side of a run, plugged into the engine's hooks: rig setup and its checkpoint before a
 * codon, the completed/error checkpoint after it, and the state snapshot at every boundary.
 */
export function createWorkspaceHooks(input: WorkspaceHooksInput): EngineHooks {
  const { sink, checkpointer, layout } = input;
  const emit = (event: RigEvent): void => {
    sink.emit(event.type, event.data as never);
  };
  return {
    async startRun(runId) {
      try {
        await checkpointer.init();
        await checkpointer.startRun(runId);
        return OK;
      } catch (error) {
        return { ok: false, message: `Checkpoints could not start: ${messageOf(error)}` };
      }
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
      const committed = await commit(checkpointer, context, "rig-setup", null);
      if (rig.completed !== null) sink.emit("rig.setup.completed", { ...rig.completed, createdCheckpoint: committed });
      return OK;
    },
    async finishCodon(context) {
      await commit(checkpointer, context, context.success ? "completed" : "error", context.changedPaths);
      return OK;
    },
    persist(plan: ExecutionPlan) {
      writeSnapshot(layout.stateDir, { runState: sink.state(), executionPlan: plan });
    },
  };
}

/** Commits a checkpoint of the codon's checkpointed files; a failure is reported, not fatal. */
async function commit(
  checkpointer: Checkpointer,
  context: CodonContext,
  type: "rig-setup" | "completed" | "error",
  changedPaths: readonly string[] | null,
): Promise<boolean> {
  try {
    await checkpointer.commit({
      codonId: context.entry.runtimeId,
      codonName: context.codon.name,
      type,
      globs: context.codon.checkpointedFiles ?? [],
      ...(changedPaths !== null && { changedPaths }),
    });
    return true;
  } catch {
    return false;
  }
}
