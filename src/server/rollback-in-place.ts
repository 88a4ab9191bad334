import { randomUUID } from "node:crypto";
import { createGitCheckpointer } from "../checkpoint/git/index.ts";
import type { Clock, EventListener, RollbackTarget } from "../engine/index.ts";
import { createEventSink, type RollbackResult, readJournalLine, rollbackExecution } from "../engine/index.ts";
import { JournalWriter, writeSnapshot } from "../journal/index.ts";
import { archiveRestorer, loadValidatedHank } from "../runner/index.ts";
import { markCrashedRun } from "../runner/mark-crashed-run.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";
import { acquireLock } from "../workspace/lock/index.ts";

export interface RollbackInPlaceInput {
  readonly layout: ExecutionLayout;
  /** How the execution's runs load their hank (path, cwd, env, `-m`): the rollback validates it alike. */
  readonly hank: { readonly hank: string; readonly cwd: string; readonly env: NodeJS.ProcessEnv };
  readonly model?: string;
  readonly target: RollbackTarget;
  readonly autoRestart: boolean;
  readonly clock: Clock;
  /** Written into the lock while the rollback holds it, so `--attach` still finds the server. */
  readonly port?: number;
  /** Hears every event the rollback journals (the server broadcasts them). */
  readonly listener: EventListener;
}

export type RollbackInPlaceResult =
  | RollbackResult
  | { readonly ok: false; readonly code: "refused"; readonly message: string };

/**
 * A rollback of a served execution whose run has ended (or was stopped for it): the steps of
 * `hankweave rollback`, composed for the server. Takes the execution lock, validates the hank, marks a
 * crashed run, runs `rollbackExecution` over the git checkpoints, the archive and the journal, then
 * releases the lock; the next run started on the execution is the continuation it prepared. A refusal
 * (unknown target, ambiguous prefix...) is journaled as a non-fatal `error`, as the reference does.
 */
export async function rollbackInPlace(input: RollbackInPlaceInput): Promise<RollbackInPlaceResult> {
  const loaded = loadValidatedHank({
    ...input.hank,
    ...(input.model !== undefined && { model: input.model }),
  });
  if (!loaded.ok) {
    return {
      ok: false,
      code: "refused",
      message: `The hank ${loaded.hankPath} no longer validates; fix it first`,
    };
  }
  const { layout, clock } = input;
  const lock = acquireLock(layout.lockPath, {
    pid: process.pid,
    runId: "rollback",
    clock,
    ...(input.port !== undefined && { port: input.port }),
  });
  if (!lock.ok) return { ok: false, code: "refused", message: lock.message };
  try {
    const line = await readJournalLine(layout.eventsPath);
    const writer = JournalWriter.open(layout.eventsPath);
    try {
      const sink = createEventSink({ store: writer, initialState: line.state, listeners: [input.listener] });
      markCrashedRun(sink, lock.staleFrom?.runId);
      const result = await rollbackExecution(
        { hank: loaded.hank, target: input.target, autoRestart: input.autoRestart, line },
        {
          sink,
          checkpointer: createGitCheckpointer({
            gitDir: layout.checkpointGitDir,
            workTree: layout.agentRoot,
            clock,
          }),
          archives: archiveRestorer(layout, clock),
          newRunId: randomUUID,
          persist: (plan) => writeSnapshot(layout.stateDir, { runState: sink.state(), executionPlan: plan }),
        },
      );
      if (!result.ok && result.code !== "failed")
        sink.emit("error", { message: result.message, fatal: false });
      if (result.ok && !input.autoRestart) {
        sink.emit("server.idle", {
          reason: "rollback-completed",
          message: `Rolled back to ${result.codonId} (${result.checkpointType}). Use 'codon.next' to continue.`,
        });
      }
      return result;
    } finally {
      writer.close();
    }
  } finally {
    lock.lock.release();
  }
}
