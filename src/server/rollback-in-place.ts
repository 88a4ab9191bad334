import type { Clock, EventListener, RollbackTarget } from "../engine/index.ts";
import { type RollbackResult, rollbackExecution } from "../engine/index.ts";
import { loadValidatedHank } from "../runner/index.ts";
import { withRollbackSession } from "../runner/rollback-session.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";

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
 * `hankweave rollback`, composed for the server. Validates the hank, then runs `rollbackExecution` in a
 * rollback session (the execution lock; a crashed run marked; the git checkpoints, the archive and the
 * journal behind the lock's fence), which releases the lock at the end; the next run started on the
 * execution is the continuation it prepared. A refusal (unknown target, ambiguous prefix...) is
 * journaled as a non-fatal `error`, as the reference does.
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
  const done = await withRollbackSession(
    {
      layout: input.layout,
      clock: input.clock,
      listeners: [input.listener],
      ...(input.port !== undefined && { port: input.port }),
    },
    async ({ line, deps }) => {
      const { sink } = deps;
      const result = await rollbackExecution(
        { hank: loaded.hank, target: input.target, autoRestart: input.autoRestart, line },
        deps,
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
    },
  );
  return done.ok ? done.value : { ok: false, code: "refused", message: done.message };
}
