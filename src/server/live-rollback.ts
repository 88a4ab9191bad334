import type { EventListener, RollbackTarget } from "../runner/index.ts";
import { type ExecutionHandle, openExecutionDoor } from "../runner/index.ts";
import type { Clock } from "../util/clock.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";
import { errorData } from "./frames.ts";
import { rollbackInPlace } from "./rollback-in-place.ts";
import type { Notice } from "./run-command-tracker.ts";

export interface ServedRollback {
  readonly layout: ExecutionLayout;
  readonly hank: { readonly hank: string; readonly cwd: string; readonly env: NodeJS.ProcessEnv };
  readonly model?: string;
  readonly clock: Clock;
  readonly port?: number;
  /** The run waiting (parked) when the rollback was asked for; undefined between runs. */
  readonly liveRun: ExecutionHandle | undefined;
  /** Hears every event the rollback journals. */
  readonly take: EventListener;
  readonly broadcast: (notice: Notice) => void;
  readonly request: {
    readonly target: RollbackTarget;
    readonly autoRestart: boolean;
    readonly source: string;
  };
}

/** How it went: the continuation should start now, the execution waits, or the refused rollback left the run waiting. */
export type ServedRollbackOutcome = "restart" | "stopped" | "kept-waiting";

/**
 * A rollback asked by a client: the target is checked first (reading only), so a parked run is
 * stopped only for a rollback that can go ahead; then the run is stopped (`stop`, journaled as sent
 * by `source`) and the execution rolled back under its lock. Refusals and failures are told to
 * clients as `error`.
 */
export async function rollBackServed(rollback: ServedRollback): Promise<ServedRollbackOutcome> {
  const { request } = rollback;
  try {
    if (rollback.liveRun !== undefined) {
      // The live run's newest checkpoints become readable by the door's reader first.
      await rollback.liveRun.flushCheckpoints();
      const problem = await openExecutionDoor(rollback.layout, rollback.clock).rollbackProblem(
        request.target,
      );
      if (problem !== undefined) {
        rollback.broadcast({ type: "error", data: errorData(problem) });
        return "kept-waiting";
      }
      rollback.liveRun.control.send({ type: "stop", source: request.source });
      await rollback.liveRun.done;
    }
    const result = await rollbackInPlace({
      layout: rollback.layout,
      hank: rollback.hank,
      ...(rollback.model !== undefined && { model: rollback.model }),
      target: request.target,
      autoRestart: request.autoRestart,
      clock: rollback.clock,
      ...(rollback.port !== undefined && { port: rollback.port }),
      listener: rollback.take,
    });
    if (!result.ok && (result.code === "refused" || result.code === "locked"))
      rollback.broadcast({ type: "error", data: errorData(result.message) });
    return result.ok && request.autoRestart ? "restart" : "stopped";
  } catch (caught) {
    const message = caught instanceof Error ? caught.message : String(caught);
    rollback.broadcast({ type: "error", data: errorData(`Rollback failed: ${message}`) });
    return "stopped";
  }
}
