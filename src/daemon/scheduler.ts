import type { Cron } from "croner";
import { cron } from "../loops/definition/croner.ts";
import { admitRun, type LimitConfig, type LoopStore, loadDefinition } from "../loops/index.ts";
import type { Clock } from "../util/clock.ts";

/**
 * Schedules: every registered loop with `[trigger] schedule` gets a croner job (UTC unless its
 * timezone says otherwise) that admits a run keyed by the fire time, so a fire seen twice (two
 * daemons, a restart) starts one run. Catch-up after downtime: `skip` ignores missed fires;
 * `coalesce` starts one run for all of them, keyed by the latest missed fire time.
 */
export interface SchedulerDeps {
  readonly store: LoopStore;
  readonly home: string;
  readonly clock: Clock;
  readonly newId: () => string;
  readonly limitConfig: LimitConfig;
  readonly log: (line: string) => void;
}

export class Scheduler {
  readonly #jobs = new Map<string, { readonly file: string; readonly cron: Cron }>();

  constructor(private readonly deps: SchedulerDeps) {}

  /** Picks up new, changed and removed registrations; returns how many loops are scheduled. */
  async refresh(): Promise<number> {
    const loops = await this.deps.store.registeredLoops();
    for (const [loopId, job] of this.#jobs) {
      if (!loops.some((l) => l.loopId === loopId && l.file === job.file)) {
        job.cron.stop();
        this.#jobs.delete(loopId);
      }
    }
    for (const loop of loops) {
      if (this.#jobs.has(loop.loopId)) continue;
      const loaded = loadDefinition(loop.file);
      const trigger = loaded.ok ? loaded.definition.trigger : undefined;
      if (trigger?.schedule === undefined) continue;
      const job = new (cron())(trigger.schedule, { timezone: trigger.timezone, protect: true }, () =>
        this.fire(loop.loopId, loop.file, this.deps.clock.now()),
      );
      this.#jobs.set(loop.loopId, { file: loop.file, cron: job });
      if (trigger.catch_up === "coalesce") await this.coalesce(loop.loopId, loop.file, job);
    }
    return this.#jobs.size;
  }

  /** One run for the fires missed while no daemon ran: the latest one since the loop's last run. */
  private async coalesce(loopId: string, file: string, cron: Cron): Promise<void> {
    const last = (await this.deps.store.listRuns({ loopId, limit: 1 }))[0];
    if (last === undefined) return;
    let missed: Date | null = null;
    for (
      let next = cron.nextRun(new Date(last.createdAt));
      next !== null && next.getTime() < this.deps.clock.now();
      next = cron.nextRun(next)
    ) {
      missed = next;
    }
    if (missed !== null) await this.fire(loopId, file, missed.getTime());
  }

  private async fire(loopId: string, file: string, at: number): Promise<void> {
    const loaded = loadDefinition(file);
    if (!loaded.ok) {
      this.deps.log(`${loopId}: schedule skipped, the definition has errors (hankweave loops lint ${file})`);
      return;
    }
    const outcome = await admitRun({
      store: this.deps.store,
      definition: loaded.definition,
      home: this.deps.home,
      clock: this.deps.clock,
      newId: () => `${loopId}-${this.deps.newId()}`,
      trigger: "schedule",
      occurrence: new Date(Math.floor(at / 1000) * 1000).toISOString(),
      limitConfig: this.deps.limitConfig,
    });
    if (outcome.kind === "admitted")
      this.deps.log(`${loopId}: scheduled run ${outcome.run.id} (${outcome.run.state})`);
    else if (outcome.kind === "refused")
      this.deps.log(`${loopId}: scheduled start refused: ${outcome.message.split("\n")[0]}`);
  }

  stop(): void {
    for (const job of this.#jobs.values()) job.cron.stop();
    this.#jobs.clear();
  }
}
