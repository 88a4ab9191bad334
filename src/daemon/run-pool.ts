import {
  type DriverDeps,
  driveRun,
  isOwnerDead,
  type LoopRunRecord,
  type LoopStore,
  pollDueAt,
} from "../loops/index.ts";

/**
 * The daemon's drivers: at every tick it looks at the live runs and drives each one that needs a
 * driver and has none alive: a running run (a new one, a promoted one, one whose driver died), and a
 * parked run with commands waiting. A run is driven by at most one task of this daemon at a time, and
 * the lease keeps every other driver (a foreground `loops run`, another daemon) out.
 */
export class RunPool {
  readonly #active = new Map<string, Promise<void>>();
  /** When each watching run polls next, as its last drive said; unknown runs are driven once to learn it. */
  readonly #wakeAt = new Map<string, number>();

  constructor(
    private readonly store: LoopStore,
    private readonly deps: (runId: string) => DriverDeps,
    private readonly log: (line: string) => void,
  ) {}

  /** How many runs this daemon drives right now. */
  get size(): number {
    return this.#active.size;
  }

  async tick(now: number): Promise<void> {
    for (const run of await this.store.listRuns({ live: true, limit: 100_000 })) {
      if (this.#active.has(run.id) || !(await this.needsDriver(run, now))) continue;
      this.start(run.id);
    }
  }

  private async needsDriver(run: LoopRunRecord, now: number): Promise<boolean> {
    const driverAlive =
      run.leaseOwner !== null && (run.leaseExpiresAt ?? 0) > now && !isOwnerDead(run.leaseOwner);
    if (driverAlive) return false;
    if (run.state === "running") return true;
    if (run.state === "watching") return this.pollDue(run, now);
    if (run.state !== "paused" && run.state !== "needs-approval") return false;
    return (await this.store.pendingCommands(run.id)).length > 0;
  }

  /** A watching run is driven when its poll is due: as its last drive said, else as its record says. */
  private pollDue(run: LoopRunRecord, now: number): boolean {
    const watch = run.contract.watch;
    if (watch === null) return false;
    const wakeAt =
      this.#wakeAt.get(run.id) ??
      pollDueAt({
        armedAtMs: Date.parse(run.createdAt),
        everySec: watch.everySec,
        successor: run.trigger === "watch",
        lastFailedPollMs: null,
      });
    return wakeAt <= now;
  }

  private start(runId: string): void {
    const task = driveRun(runId, this.deps(runId), { follow: false })
      .then((end) => {
        if (end.kind === "terminal") this.log(`${runId}: ${end.run.state} (${end.run.cause})`);
        if (end.kind === "waiting" && end.wakeAt !== undefined) this.#wakeAt.set(runId, end.wakeAt);
        else this.#wakeAt.delete(runId);
        if (end.kind === "waiting" && end.run.state !== "watching")
          this.log(
            `${runId}: ${end.run.state}${end.run.parkReason === null ? "" : ` (${end.run.parkReason})`}`,
          );
      })
      .catch((caught: unknown) =>
        this.log(`${runId}: driver error: ${caught instanceof Error ? caught.message : String(caught)}`),
      )
      .finally(() => this.#active.delete(runId));
    this.#active.set(runId, task);
  }

  /** Waits for every drive in flight. */
  async drain(): Promise<void> {
    await Promise.all(this.#active.values());
  }
}
