import {
  type ClaimedLease,
  DEFAULT_LEASE_TTL_MS,
  type DriveEnd,
  type DriverDeps,
  deadOwnerOf,
  driveRun,
  isOwnerDead,
  type LeaseClaim,
  type LiveRunLease,
  type LoopStore,
  leaseTakenFrom,
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
  /** Each watching run's poll period, from its pinned contract (null: the contract has no `[watch]`). */
  readonly #watchEverySec = new Map<string, number | null>();

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
    return !this.#handBack.signal.aborted && this.room() > 0;
  }

  /**
   * One pass: the live runs that need a driver (oldest first, as many as there is room for) are
   * claimed in one store transaction, then their drives start. Claiming first keeps the last run's
   * claim from waiting behind the work of the drives started before it.
   */
  async tick(now: number): Promise<void> {
    if (!this.hasRoom()) return;
    // Only the columns that decide are read.
    const live = await this.store.liveRunLeases();
    this.forgetEnded(live);
    const due: LiveRunLease[] = [];
    for (const run of live) {
      if (due.length >= this.room()) break;
      if (this.#active.has(run.id) || !(await this.needsDriver(run, now))) continue;
      due.push(run);
    }
    if (due.length === 0) return;
    const drives = due.map((run) => ({ run, deps: this.deps(run.id) }));
    const claims = drives.map(({ run, deps }) => claimOf(run, deps.owner));
    const first = drives[0]?.deps;
    const ttl = first?.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
    const granted = await this.store.acquireLeases(claims, first?.clock.now() ?? now, ttl);
    if (this.#handBack.signal.aborted) {
      // Draining began while the claims were made: hand them straight back for another daemon.
      for (const [runId, token] of granted) await this.store.releaseLease(runId, token);
      return;
    }
    for (const { run, deps } of drives) {
      const token = granted.get(run.id);
      // Not granted: another daemon's driver took it first.
      if (token !== undefined) this.start(run.id, deps, { token, takenFrom: leaseTakenFrom(run.leaseOwner) });
    }
  }

  /** How many more runs this daemon may drive now. */
  private room(): number {
    const workers = this.options.workers ?? 0;
    return workers <= 0 ? Number.POSITIVE_INFINITY : workers - this.#active.size;
  }

  private async needsDriver(run: LiveRunLease, now: number): Promise<boolean> {
    const driverAlive =
      run.leaseOwner !== null && (run.leaseExpiresAt ?? 0) > now && !isOwnerDead(run.leaseOwner);
    if (driverAlive) return false;
    if (run.state === "running") return true;
    if (run.state === "watching") return this.pollDue(run, now);
    if (run.state !== "paused" && run.state !== "needs-approval") return false;
    return run.commandsWaiting;
  }

  /** A watching run is driven when its poll is due: as its last drive said, else as its record says. */
  private async pollDue(run: LiveRunLease, now: number): Promise<boolean> {
    const known = this.#wakeAt.get(run.id);
    if (known !== undefined) return known <= now;
    const everySec = await this.watchEverySec(run.id);
    if (everySec === null) return false;
    const wakeAt = pollDueAt({
      armedAtMs: Date.parse(run.createdAt),
      everySec,
      successor: run.trigger === "watch",
      lastFailedPollMs: null,
    });
    return wakeAt <= now;
  }

  /** The run's `[watch]` period, read from its contract once: a pinned contract never changes. */
  private async watchEverySec(runId: string): Promise<number | null> {
    const cached = this.#watchEverySec.get(runId);
    if (cached !== undefined) return cached;
    const everySec = (await this.store.getRun(runId))?.contract.watch?.everySec ?? null;
    this.#watchEverySec.set(runId, everySec);
    return everySec;
  }

  /** Drops what the pool remembers of runs that are no longer live. */
  private forgetEnded(live: readonly LiveRunLease[]): void {
    if (this.#wakeAt.size === 0 && this.#watchEverySec.size === 0) return;
    const ids = new Set(live.map((run) => run.id));
    for (const map of [this.#wakeAt, this.#watchEverySec]) {
      for (const id of map.keys()) if (!ids.has(id)) map.delete(id);
    }
  }

  /** Starts the drive of a run whose lease this pool has just taken. */
  private start(runId: string, deps: DriverDeps, claimed: ClaimedLease): void {
    const task = driveRun(runId, deps, { follow: false, handBack: this.#handBack.signal, claimed })
      .then((end) => this.drove(runId, end))
      .catch((caught: unknown) =>
        this.log(`${runId}: driver error: ${caught instanceof Error ? caught.message : String(caught)}`),
      )
      .finally(() => this.#active.delete(runId));
    this.#active.set(runId, task);
  }

  /** What the pool keeps and logs of a drive's end. */
  private drove(runId: string, end: DriveEnd): void {
    if (end.kind === "handed-back") this.log(`${runId}: handed back (drain)`);
    if (end.kind === "terminal") this.log(`${runId}: ${end.run.state} (${end.run.cause})`);
    if (end.kind === "waiting" && end.wakeAt !== undefined) this.#wakeAt.set(runId, end.wakeAt);
    else this.#wakeAt.delete(runId);
    if (end.kind === "waiting" && end.run.state !== "watching")
      this.log(`${runId}: ${end.run.state}${end.run.parkReason === null ? "" : ` (${end.run.parkReason})`}`);
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

/** The claim of a run's lease for a new driver: from a dead owner too, whose lease it may take over. */
function claimOf(run: LiveRunLease, owner: string): LeaseClaim {
  const dead = deadOwnerOf(run.leaseOwner);
  return dead === undefined ? { runId: run.id, owner } : { runId: run.id, owner, takeOverFrom: dead };
}
