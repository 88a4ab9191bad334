import {
  type EventListener,
  loadValidatedHank,
  openExecutionDoor,
  type RollbackOutcome,
  type RollbackTarget,
} from "../runner/index.ts";
import type { Clock } from "../util/clock.ts";
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
  | RollbackOutcome
  | { readonly ok: false; readonly code: "refused"; readonly message: string };

/**
 * A rollback of a served execution whose run has ended (or was stopped for it), through the execution's
 * door: the hank is validated, then the rollback runs under the lock as `hankweave rollback` does; the
 * next run started on the execution is the continuation it prepared. A refusal (unknown target,
 * ambiguous prefix...) is journaled as a non-fatal `error`, as the reference does.
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
  return openExecutionDoor(input.layout, input.clock).rollback({
    hank: loaded.hank,
    target: input.target,
    autoRestart: input.autoRestart,
    listeners: [input.listener],
    served: true,
    ...(input.port !== undefined && { port: input.port }),
  });
}
