import { setTimeout as sleep } from "node:timers/promises";
import { isTerminalState } from "../../events/loop-run-states.ts";
import { effectiveBudgets, type Meters } from "../model/budgets.ts";
import { decide, noProgressStreak } from "../model/stop-model.ts";
import { LeaseLostError } from "../store/loop-store.ts";
import type { GenerationRecord, LoopRunRecord, StoredCommand } from "../store/store-records.ts";
import { commandEffect } from "./command-effects.ts";
import { endRunWith } from "./contract-guard.ts";
import { ChildGroups, type DriverDeps, deadOwnerOf, endRun, moveRun } from "./driver-context.ts";
import { prepareItems } from "./fan-out-generation.ts";
import { GenerationHistory } from "./generation-history.ts";
import { finishGates, resumeGeneration, type StepContext, startGeneration } from "./generation-step.ts";
import { runPrecheck } from "./precheck.ts";
import { armSuccessor, tickOf, watchStep } from "./watch-step.ts";

/** How a drive ended: the run reached a terminal state, waits (parked, queued, watching), or was lost. */
export type DriveEnd =
  | { readonly kind: "terminal"; readonly run: LoopRunRecord }
  | {
      readonly kind: "waiting";
      readonly run: LoopRunRecord;
      /** For a watching run: when its next poll is due (epoch ms). */
      readonly wakeAt?: number;
    }
  | { readonly kind: "busy"; readonly owner: string }
  | { readonly kind: "lost" }
  | { readonly kind: "handed-back"; readonly run: LoopRunRecord };

export interface DriveOptions {
  /** Keep waiting while the run is parked or queued (the foreground `loops run`); else return. */
  readonly follow: boolean;
  /**
   * A draining daemon: once aborted, the drive returns at the next boundary (after the generation
   * under way) with the run still live, and its lease is released for another driver to take.
   */
  readonly handBack?: AbortSignal;
  /**
   * The lease the caller already holds for this drive (a daemon claims the runs of its tick in one
   * transaction, `LoopStore.acquireLeases`): the drive uses its token instead of claiming, and
   * releases it when it returns, as it does its own.
   */
  readonly claimed?: ClaimedLease;
}

/** How long a driver's lease lasts without renewal, unless `DriverDeps.leaseTtlMs` says otherwise. */
export const DEFAULT_LEASE_TTL_MS = 30_000;

/** A lease taken for a drive, and whose lease it replaced (a driver that died or let it expire). */
export interface ClaimedLease {
  readonly token: number;
  readonly takenFrom: "expired" | "dead" | null;
}

/**
 * Drives one run as its only driver: takes the lease (from a dead driver too), ends the process groups
 * an earlier driver left, then at each boundary applies the operator's commands and the stop model's
 * decision until the run ends (or waits, when not following). Every decision is recomputed from the
 * store, so a driver killed at any moment is replaced by one that carries on where the store says.
 */
export async function driveRun(runId: string, deps: DriverDeps, options: DriveOptions): Promise<DriveEnd> {
  const ttl = deps.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  const run = await deps.store.getRun(runId);
  if (run === undefined) throw new Error(`No loop run ${runId}`);
  if (isTerminalState(run.state)) {
    if (options.claimed !== undefined) await deps.store.releaseLease(runId, options.claimed.token);
    return { kind: "terminal", run };
  }
  const lease = options.claimed ?? (await claimLease(run, deps, ttl));
  if (lease === null) return { kind: "busy", owner: run.leaseOwner ?? "" };
  // A driver releases its lease when it returns: one still named was left by a driver that died or stalled.
  if (lease.takenFrom !== null)
    deps.notice?.({ kind: "lease-taken-over", loopId: run.loopId, from: lease.takenFrom });
  const driver = new Driver(runId, deps, lease.token, new ChildGroups(run.dir));
  const heartbeat = setInterval(() => void driver.renew(ttl), Math.max(50, ttl / 3));
  heartbeat.unref();
  try {
    return await driver.loop(options);
  } catch (caught) {
    if (caught instanceof LeaseLostError) return { kind: "lost" };
    throw caught;
  } finally {
    clearInterval(heartbeat);
    await deps.store.releaseLease(runId, lease.token).catch(() => undefined);
  }
}

/** Takes the run's lease for this driver, from a dead owner too; null while a live owner holds it. */
async function claimLease(run: LoopRunRecord, deps: DriverDeps, ttl: number): Promise<ClaimedLease | null> {
  const dead = deadOwnerOf(run.leaseOwner);
  const token = await deps.store.acquireLease(run.id, deps.owner, deps.clock.now(), ttl, dead);
  if (token === null) return null;
  return { token, takenFrom: leaseTakenFrom(run.leaseOwner) };
}

/** Whose lease a new one replaced: none, one whose owner is dead, or one left to expire. */
export function leaseTakenFrom(previousOwner: string | null): ClaimedLease["takenFrom"] {
  if (previousOwner === null) return null;
  return deadOwnerOf(previousOwner) === undefined ? "expired" : "dead";
}

class Driver implements StepContext {
  /** Running time counted so far in this drive, and when it was last added to the meters. */
  private lastMark: number | null = null;
  private readonly approvals = new Set<string>();
  private resumeApproved = false;
  private readonly history: GenerationHistory;

  constructor(
    private readonly runId: string,
    readonly deps: DriverDeps,
    readonly token: number,
    readonly children: ChildGroups,
  ) {
    children.endAll();
    this.history = new GenerationHistory(deps.store, runId);
  }

  async renew(ttl: number): Promise<void> {
    await this.deps.store.renewLease(this.runId, this.token, this.deps.clock.now(), ttl).catch(() => false);
  }

  runningMs = (): number => 0;

  async loop(options: DriveOptions): Promise<DriveEnd> {
    for (;;) {
      const run = await this.deps.store.getRun(this.runId);
      if (run === undefined) return { kind: "lost" };
      if (isTerminalState(run.state)) return { kind: "terminal", run };
      this.runningMs = () =>
        run.meters.runningMs + (this.lastMark === null ? 0 : this.deps.clock.now() - this.lastMark);
      if (run.state === "running" && this.lastMark === null) this.lastMark = this.deps.clock.now();
      if (run.state !== "running") this.lastMark = null;
      const step = await this.step(run);
      if (step === "again" && options.handBack?.aborted === true) return { kind: "handed-back", run };
      if (step === "again") continue;
      if (!options.follow)
        return { kind: "waiting", run, ...(this.wakeAt !== null && { wakeAt: this.wakeAt }) };
      await sleep(this.deps.pollMs ?? 500, undefined, { ref: true });
      if (this.deps.signal?.aborted === true) await this.stopFromSignal(run);
    }
  }

  private async stopFromSignal(run: LoopRunRecord): Promise<void> {
    const pending = await this.deps.store.pendingCommands(run.id);
    if (pending.some((c) => c.type === "stop")) return;
    await this.deps.store.addCommand(run.id, { type: "stop", by: "signal" }, this.now());
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }

  /** One boundary: commands first, then (while running) the decision and the next piece of work. */
  private async step(run: LoopRunRecord): Promise<"again" | "wait"> {
    const generations = await this.history.read();
    const pendingGate = generations.at(-1)?.facts.gates.find((g) => g.verdict === "approval")?.gateId ?? null;
    const deferred: StoredCommand[] = [];
    if (this.deps.signal?.aborted === true) await this.stopFromSignal(run);
    for (const command of await this.deps.store.pendingCommands(run.id)) {
      const effect = commandEffect(run, command, pendingGate, this.now());
      if (effect.kind === "defer") {
        deferred.push(command);
        continue;
      }
      if (effect.kind === "refuse") {
        await this.settle(command, `refused: ${effect.why}`);
        continue;
      }
      if (effect.kind === "end") await endRun(this.deps, this.token, run, effect.outcome);
      else {
        await moveRun(
          this.deps,
          this.token,
          run,
          effect.to,
          effect.via,
          effect.amendments === undefined ? {} : { amendments: effect.amendments },
        );
        if (effect.approvedGate !== undefined) this.approvals.add(effect.approvedGate);
        if (run.parkReason === "interrupted") this.resumeApproved = true;
      }
      await this.settle(command, "applied");
      return "again";
    }
    if (run.state === "watching") return this.watching(run);
    if (run.state !== "running") return "wait";
    await this.running(run, generations, deferred);
    return "again";
  }

  private wakeAt: number | null = null;
  private successorArmed = false;

  private async watching(run: LoopRunRecord): Promise<"again" | "wait"> {
    const step = await watchStep(this, run);
    this.wakeAt = step.kind === "wait" ? step.wakeAt : null;
    return step.kind === "wait" ? "wait" : "again";
  }

  /**
   * A watch run that ticked: its next tick's run is armed (again, idempotently, after a crash), and a
   * tick without items ends it `no-op: clean_tick`. Returns whether it ended the run.
   */
  private async afterTick(run: LoopRunRecord, generations: readonly GenerationRecord[]): Promise<boolean> {
    const tick = await tickOf(this.deps, run.id);
    if (tick === undefined) return false;
    if (!this.successorArmed) await armSuccessor(this, run, tick.at);
    this.successorArmed = true;
    if (generations.length > 0 || tick.items.length > 0) return false;
    await endRun(this.deps, this.token, run, { state: "no-op", cause: "clean_tick" });
    this.lastMark = null;
    return true;
  }

  private settle(command: StoredCommand, outcome: string): Promise<void> {
    return this.deps.store.settleCommand(command.runId, this.token, command.id, outcome, this.now());
  }

  private async running(
    run: LoopRunRecord,
    generations: readonly GenerationRecord[],
    deferred: StoredCommand[],
  ): Promise<void> {
    const last = generations.at(-1);
    const stop = deferred.some((c) => c.type === "stop");
    if (run.contract.kind === "watch" && !stop && (await this.afterTick(run, generations))) return;
    if (last?.state === "running" && !stop) return this.interrupted(run, last);
    if (last !== undefined && !stop && this.gatesLeft(run, last))
      return finishGates(this, run, last, this.approvals);
    const meters = await this.meters(run, generations);
    const messages = await this.deps.store.messages(run.id);
    const decision = decide({
      limits: run.contract.limits,
      gates: run.contract.gates.map((g) => ({ id: g.id, maxRevisions: g.maxRevisions })),
      history: generations.filter((g) => g.state !== "running").map((g) => g.facts),
      meters,
      budgets: effectiveBudgets(run.contract.limits, run.amendments),
      onExceeded: run.contract.onExceeded,
      unreadOperatorMessages: messages.filter(
        (m) => m.kind === "operator_note" && m.readByGeneration === null,
      ).length,
      stopRequested: stop,
      pauseRequested: deferred.some((c) => c.type === "pause"),
    });
    if (decision.kind !== "continue") {
      const to = decision.kind === "end" ? decision.outcome.state : decision.state;
      const via = decision.kind === "end" ? decision.outcome.cause : decision.reason;
      await moveRun(this.deps, this.token, run, to, via, { meters });
      this.lastMark = null;
      for (const command of deferred) await this.settle(command, "applied");
      return;
    }
    await this.deps.store.updateMeters(run.id, this.token, { meters });
    if (decision.because === "start" && (await runPrecheck(this, run))) return;
    const itemsEnd = await prepareItems(this.deps, this.token, run);
    if (itemsEnd !== undefined) {
      await this.deps.store.updateMeters(run.id, this.token, { meters });
      await endRunWith(this.deps, this.token, { ...run, meters }, itemsEnd);
      return;
    }
    await startGeneration(this, { ...run, meters }, (last?.number ?? 0) + 1);
  }

  /** A generation a crash left running: resumed, or parked first with `on_interrupted = "ask"`. */
  private async interrupted(run: LoopRunRecord, last: GenerationRecord): Promise<void> {
    if (run.contract.onInterrupted === "ask" && !this.resumeApproved && !this.startedHere.has(last.number)) {
      await moveRun(this.deps, this.token, run, "needs-approval", "interrupted");
      return;
    }
    this.startedHere.add(last.number);
    this.deps.report?.(`generation ${last.number} resumed after an interruption`);
    await resumeGeneration(this, run, last);
  }

  private readonly startedHere = new Set<number>();

  /** A completed generation whose gates stopped at a human gate that has since been approved. */
  private gatesLeft(run: LoopRunRecord, last: GenerationRecord): boolean {
    const gates = last.facts.gates;
    const waiting = gates.at(-1)?.verdict === "approval" && this.approvals.has(gates.at(-1)?.gateId ?? "");
    return last.state === "completed" && waiting && gates.length <= run.contract.gates.length;
  }

  /** The meters from the generations (tokens, cost, count, no-progress) and the running time. */
  private async meters(run: LoopRunRecord, generations: readonly GenerationRecord[]): Promise<Meters> {
    const now = this.deps.clock.now();
    const runningMs = run.meters.runningMs + (this.lastMark === null ? 0 : now - this.lastMark);
    this.lastMark = now;
    const ended = generations.filter((g) => g.state !== "running");
    return {
      generations: generations.length,
      tokens: ended.reduce((sum, g) => sum + (g.tokens ?? 0), 0),
      tokensKnown: ended.every((g) => g.tokens !== null),
      runningMs,
      noProgress: noProgressStreak(
        ended.map((g) => g.facts),
        run.contract.limits.window,
      ),
      costUsd: ended.reduce((sum, g) => sum + (g.costUsd ?? 0), 0),
      costKnown: ended.every((g) => g.costUsd !== null),
    };
  }
}
