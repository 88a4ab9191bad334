import {
  type AbandonResult,
  abandonRollback,
  type EventListener,
  type RollbackResult,
  type RollbackTarget,
  rollbackExecution,
} from "../engine/index.ts";
import type { HankFile } from "../hank/schema/index.ts";
import type { Clock } from "../util/clock.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";
import { withRollbackSession } from "./rollback-session.ts";

export interface RollbackRequest {
  /** The execution's hank, validated (the rollback plans the continuation from it). */
  readonly hank: HankFile;
  readonly target: RollbackTarget;
  /** The continuation starts at once (`--restart`, `autoRestart`); otherwise the execution waits. */
  readonly autoRestart: boolean;
  /** Hear every event the rollback journals (a printer, the server's broadcast). */
  readonly listeners: readonly EventListener[];
  /** Written into the lock while the rollback holds it, so `--attach` still finds a server. */
  readonly port?: number;
  /**
   * A rollback asked over the protocol: a refusal is journaled as a non-fatal `error` (clients read the
   * journal), and a rollback that does not restart parks the execution with `server.idle`.
   */
  readonly served?: boolean;
}

/** How a rollback went; `locked` when another process holds the execution (nothing was read or written). */
export type RollbackOutcome =
  | RollbackResult
  | { readonly ok: false; readonly code: "locked"; readonly message: string };

export type AbandonOutcome = AbandonResult | { readonly ok: false; readonly message: string };

/**
 * A rollback, composed once for every face: under the execution's lock, in a rollback session (a
 * crashed run marked, the git checkpoints, the archive and the journal behind the lock's fence).
 */
export async function rollBack(
  layout: ExecutionLayout,
  clock: Clock,
  request: RollbackRequest,
): Promise<RollbackOutcome> {
  const done = await withRollbackSession(
    {
      layout,
      clock,
      listeners: request.listeners,
      ...(request.port !== undefined && { port: request.port }),
    },
    async ({ line, deps }) => {
      const result = await rollbackExecution(
        { hank: request.hank, target: request.target, autoRestart: request.autoRestart, line },
        deps,
      );
      if (request.served === true) {
        if (!result.ok && result.code !== "failed")
          deps.sink.emit("error", { message: result.message, fatal: false });
        if (result.ok && !request.autoRestart) {
          deps.sink.emit("server.idle", {
            reason: "rollback-completed",
            message: `Rolled back to ${result.codonId} (${result.checkpointType}). Use 'codon.next' to continue.`,
          });
        }
      }
      return result;
    },
  );
  return done.ok ? done.value : { ok: false, code: "locked", message: done.message };
}

/** `--abandon`: ends an interrupted rollback without finishing it, under the lock. */
export async function abandonInterruptedRollback(
  layout: ExecutionLayout,
  clock: Clock,
  request: Pick<RollbackRequest, "hank" | "listeners">,
): Promise<AbandonOutcome> {
  const done = await withRollbackSession({ layout, clock, listeners: request.listeners }, ({ line, deps }) =>
    abandonRollback({ hank: request.hank, line }, deps),
  );
  return done.ok ? done.value : { ok: false, message: done.message };
}
