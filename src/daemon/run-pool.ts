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
 *
 * Several daemons on one store share the work through the leases: a daemon claims a run by taking its
 * lease (the store lets exactly one taker win) and drives at most `workers` runs at a time, so the
 * runs it leaves are claimed by the others. Draining stops claiming, lets each drive finish the
 * generation under way, and hands its run back (lease released, run still live) for another daemon.
 */
export interface RunPoolOptions {
  /** Runs driven at a time; 0 or absent: no limit. */
  readonly workers?: number;
}

export class RunPool {
  readonly #active = new Map<string, Promise<void>>();
  readonly #handBack = new AbortController();
  /** When each watching run polls next, as its last drive said; unknown runs are driven once to learn it. */
  readonly #wakeAt = new Map<string, number>();

  constructor(
    private readonly store: LoopStore,
    private readonly deps: (runId: string) => DriverDeps,
    private readonly log: (line: string) => void,
    private readonly options: RunPoolOptions = {},
  ) {}

  /** How many runs this daemon drives right now. */
  get size(): number {
    return this.#active.size;
  }

  /** Whether this daemon may claim one more run now. */
  private hasRoom(): boolean {
    if (this.#handBack.signal.aborted) return false;
    const workers = this.options.workers ?? 0;
    return workers <= 0 || this.#active.size < workers;
  }

  async tick(now: number): Promise<void> {
    if (!this.hasRoom()) return;
    // Oldest first (the store lists newest first): work is taken in the order it arrived.
    const live = (await this.store.listRuns({ live: true, limit: 100_000 })).reverse();
    for (const run of live) {
      if (!this.hasRoom()) return;
      if (this.#active.has(run.id) || !(await this.needsDriver(run, now))) continue;
      await this.start(run.id);
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

  /**
   * Starts a drive; resolves once the drive has claimed the run or found it taken, so that a run
   * another daemon holds does not count against `workers`.
   */
  private async start(runId: string): Promise<void> {
    let claimed: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => {
      claimed = resolve;
    });
    const deps = this.deps(runId);
    const store = noticingClaim(deps.store, claimed);
    const task = driveRun(runId, { ...deps, store }, { follow: false, handBack: this.#handBack.signal })
      .then((end) => {
        if (end.kind === "handed-back") this.log(`${runId}: handed back (drain)`);
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
      .finally(() => {
        this.#active.delete(runId);
        claimed();
      });
    this.#active.set(runId, task);
    await settled;
  }

  /** Waits for every drive in flight. */
  async settle(): Promise<void> {
    await Promise.all(this.#active.values());
  }

  /**
   * Stops claiming runs; each drive in flight returns after the generation under way, its run left
   * live and its lease released, so another daemon (or this one's successor) takes it at once.
   */
  async drain(): Promise<void> {
    this.#handBack.abort();
    await this.settle();
  }
}

/** The store, calling `onClaim` once a lease was asked for (whether it was granted or not). */
function noticingClaim(store: LoopStore, onClaim: () => void): LoopStore {
  const acquireLease: LoopStore["acquireLease"] = async (...args) => {
    try {
      return await store.acquireLease(...args);
    } finally {
      onClaim();
    }
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === "acquireLease") return acquireLease;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
