import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import {
  isBadEnding,
  isTerminalState,
  type Outcome,
  type RunStateName,
  type TerminalState,
} from "../../events/loop-run-states.ts";
import type { Clock } from "../../util/clock.ts";
import { runEndLayers } from "../model/end-layers.ts";
import type { LimitConfig } from "../model/limits.ts";
import type { Via } from "../model/state-table.ts";
import type { LoopStore } from "../store/loop-store.ts";
import type { LoopEventInput, LoopRunRecord, StateChange } from "../store/store-records.ts";
import { verifyPins } from "./pin-files.ts";
import { killGroup, runArgv } from "./run-argv.ts";

/** What a driver is given: the store, time, ids, its identity, and how it reports progress. */
export interface DriverDeps {
  readonly store: LoopStore;
  readonly clock: Clock;
  readonly newId: () => string;
  /** This driver's lease owner id; `driverOwner()` makes one. */
  readonly owner: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Default 30 s; renewed every third of it. */
  readonly leaseTtlMs?: number;
  /** How often a running generation looks for a stop, and a following driver for commands. Default 500 ms. */
  readonly pollMs?: number;
  /** Ctrl-C: the run is stopped as by `loops stop`. */
  readonly signal?: AbortSignal;
  /** Defaults and ceilings for the runs a driver admits itself (a watch's next tick). */
  readonly limitConfig?: LimitConfig;
  /** One line per notable step (generation started, verdicts, state changes), for a terminal. */
  readonly report?: (line: string) => void;
  /**
   * Directories a sandboxed body, gate or hook must not see besides the loops home: the store's and
   * the daemon's (where its token is).
   */
  readonly privateDirs?: readonly string[];
  /** Told of what operators count (the daemon's `/metrics`); called after the store recorded it. */
  readonly notice?: (notice: DriverNotice) => void;
}

/**
 * What a driver tells its daemon's counters: it took over a lease another driver left behind (that
 * driver's process is `dead`, or its lease `expired`), or it parked a run for a human
 * (`needs-approval`), with the reason (`budget_escalated`, `human_gate`, `interrupted`).
 */
export type DriverNotice =
  | { readonly kind: "lease-taken-over"; readonly loopId: string; readonly from: "dead" | "expired" }
  | { readonly kind: "escalated"; readonly loopId: string; readonly reason: Via };

/** `host:pid:nonce`: a driver on this host whose process is gone is dead, and its lease can be taken. */
export function driverOwner(nonce: string): string {
  return `${hostname()}:${process.pid}:${nonce}`;
}

export function isOwnerDead(owner: string): boolean {
  const [host, pid] = owner.split(":");
  if (host !== hostname() || pid === undefined) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (caught) {
    return (caught as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** The lease's owner when it is a dead process of this host (its lease may be taken over at once). */
export function deadOwnerOf(owner: string | null): string | undefined {
  return owner !== null && isOwnerDead(owner) ? owner : undefined;
}

/** Process groups of gates and hooks in flight, in the run's directory: a next driver ends them first. */
export class ChildGroups {
  readonly #path: string;
  constructor(runDir: string) {
    this.#path = join(runDir, "children.json");
  }
  add(pgid: number): void {
    writeFileSync(this.#path, JSON.stringify([...this.list(), pgid]));
  }
  list(): number[] {
    if (!existsSync(this.#path)) return [];
    try {
      return JSON.parse(readFileSync(this.#path, "utf8")) as number[];
    } catch {
      return [];
    }
  }
  /** Ends every recorded group left by an earlier driver. */
  endAll(): void {
    for (const pgid of this.list()) killGroup(pgid);
    rmSync(this.#path, { force: true });
  }
  clear(): void {
    rmSync(this.#path, { force: true });
  }
}

/** Writes a state change; a park or a bad ending carries the `escalation` effect in the same transaction. */
export async function moveRun(
  deps: DriverDeps,
  token: number,
  run: LoopRunRecord,
  to: RunStateName,
  via: Via,
  extra: Omit<StateChange, "from" | "to" | "via" | "at"> = {},
): Promise<LoopRunRecord> {
  const at = new Date(deps.clock.now()).toISOString();
  const notify =
    run.contract.escalation !== null && (to === "needs-approval" || (isTerminalState(to) && isBadEnding(to)));
  const payload = {
    runId: run.id,
    loopId: run.loopId,
    state: to,
    why: via,
    at,
    meters: extra.meters ?? run.meters,
  };
  const ending = isTerminalState(to) ? await endEvent(deps, run, to, via) : undefined;
  const moved = await deps.store.transition(run.id, token, {
    from: run.state,
    to,
    via,
    at,
    ...extra,
    ...(ending !== undefined && { events: [...(extra.events ?? []), ending] }),
    ...(notify && { effects: [{ deliveryId: `${run.id}:${run.meters.generations}:${to}:${via}`, payload }] }),
  });
  deps.report?.(`run ${run.id}: ${run.state} -> ${to} (${via})`);
  if (to === "needs-approval") deps.notice?.({ kind: "escalated", loopId: run.loopId, reason: via });
  if (notify) await dispatchEffects(deps, moved);
  return moved;
}

/** `run.ended`: the outcome with the run's end layers in the six kinds, written with the transition. */
async function endEvent(
  deps: DriverDeps,
  run: LoopRunRecord,
  to: TerminalState,
  via: Via,
): Promise<LoopEventInput> {
  const outcome = { state: to, cause: via } as Outcome;
  const last = (await deps.store.generations(run.id, Math.max(1, run.meters.generations))).at(-1);
  return { type: "run.ended", data: { ...outcome, layers: runEndLayers(outcome, last?.state) } };
}

export function endRun(
  deps: DriverDeps,
  token: number,
  run: LoopRunRecord,
  outcome: Outcome,
  extra: Omit<StateChange, "from" | "to" | "via" | "at"> = {},
) {
  return moveRun(deps, token, run, outcome.state, outcome.cause, extra);
}

/**
 * Delivers this run's pending effects after their transaction committed: the `escalation` command
 * gets the payload (with its delivery id) on stdin. At least once: a failed delivery stays pending.
 */
export async function dispatchEffects(deps: DriverDeps, run: LoopRunRecord): Promise<void> {
  const argv = run.contract.escalation;
  if (argv === null) return;
  // A tampered escalation script is not run: its effects stay pending, and the run's end says why.
  const pin = run.contract.pins?.find((p) => p.path === argv[0]);
  if (pin !== undefined && verifyPins([pin]) !== undefined) {
    deps.report?.(`escalation not run: ${pin.label} changed after admission`);
    return;
  }
  for (const effect of await deps.store.pendingEffects()) {
    if (effect.runId !== run.id) continue;
    const result = await runArgv({
      argv,
      cwd: run.dir,
      env: { PATH: deps.env.PATH ?? "/usr/bin:/bin", HANKWEAVE_LOOP_DELIVERY_ID: effect.deliveryId },
      stdin: JSON.stringify({ deliveryId: effect.deliveryId, ...effect.payload }),
      timeoutMs: 60_000,
    });
    const delivered = result.kind === "exited" && result.code === 0;
    await deps.store.markEffect(effect.id, delivered, new Date(deps.clock.now()).toISOString());
  }
}
