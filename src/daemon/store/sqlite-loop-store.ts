import type { Kysely, Transaction } from "kysely";
import {
  isLiveState,
  isTerminalState,
  LIVE_STATES,
  type RunStateName,
} from "../../events/loop-run-states.ts";
import { transition as checkEdge } from "../../loops/model/state-table.ts";
import {
  type LeaseClaim,
  LeaseLostError,
  type LoopStore,
  StaleStateError,
} from "../../loops/store/loop-store.ts";
import type {
  AdmitResult,
  GenerationRecord,
  LiveRunLease,
  LoopRunRecord,
  NewRun,
  RunFilter,
  StateChange,
} from "../../loops/store/store-records.ts";
import { LogQueries } from "./log-queries.ts";
import { type MigrationReport, migrate } from "./migrations.ts";
import { watchCommits } from "./sqlite-commit-watch.ts";
import { openSqlite } from "./sqlite-database.ts";
import { generationFromRow, generationToRow, runFromRow, runToRow } from "./store-rows.ts";
import type { StoreDatabase } from "./store-tables.ts";

type Db = Kysely<StoreDatabase> | Transaction<StoreDatabase>;

export interface SqliteStoreOptions {
  /** The database file, or `:memory:`. */
  readonly path: string;
  /** Used for the backup's name. Default: the system time. */
  readonly now?: () => Date;
}

/** Opens (and migrates) the embedded SQLite loop store. */
export async function openSqliteLoopStore(options: SqliteStoreOptions): Promise<
  SqliteLoopStore & {
    readonly migration: MigrationReport;
    /** Wake-ups on other processes' commits, for a daemon (see `watchCommits`). */
    readonly watchCommits: (wake: () => void) => () => Promise<void>;
  }
> {
  const { db, raw } = await openSqlite(options.path);
  try {
    const migration = await migrate(db, options.path, options.now ?? (() => new Date()));
    return Object.assign(new SqliteLoopStore(db), {
      migration,
      watchCommits: (wake: () => void) => watchCommits(raw, wake),
    });
  } catch (caught) {
    raw.close();
    throw caught;
  }
}

/** The loop store on SQLite (see `LoopStore` for the contract). */
export class SqliteLoopStore extends LogQueries implements LoopStore {
  constructor(db: Kysely<StoreDatabase>) {
    super(db, (trx, runId, token) => assertToken(trx, runId, token));
  }

  async admitRun(
    run: NewRun,
    options: { concurrency: "forbid" | "allow" | "queue"; initial: "running" | "watching" },
  ): Promise<AdmitResult> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await selectRun(trx)
        .where("loop_id", "=", run.loopId)
        .where("run_key", "=", run.key)
        .executeTakeFirst();
      if (existing !== undefined) return { kind: "duplicate", run: runFromRow(existing) };
      const live = await selectRun(trx)
        .where("loop_id", "=", run.loopId)
        .where("state", "in", [...LIVE_STATES])
        .orderBy("created_at")
        .executeTakeFirst();
      if (live !== undefined && options.concurrency === "forbid") {
        return {
          kind: "refused",
          liveRunId: live.id,
          message: `Loop ${run.loopId} already has a live run (${live.id}, ${live.state}) and its concurrency is forbid. Stop it, or set trigger.concurrency = "queue".`,
        };
      }
      const state: RunStateName =
        live !== undefined && options.concurrency === "queue" ? "queued" : options.initial;
      checkEdge("new", state, state === "queued" ? "deferred" : state === "watching" ? "armed" : "admitted");
      await trx
        .insertInto("loop_runs")
        .values(runToRow(run, state, run.createdAt))
        .execute();
      // What admission warned about (brakes in reach, a changed definition) is journaled with it.
      const notices = run.contract.notices ?? [];
      const data = { state, key: run.key, trigger: run.trigger, notices };
      await this.insertEvent(trx, run.id, { type: "run.admitted", data }, run.createdAt);
      const stored = await selectRun(trx).where("id", "=", run.id).executeTakeFirstOrThrow();
      return { kind: "admitted", run: runFromRow(stored) };
    });
  }

  async getRun(runId: string): Promise<LoopRunRecord | undefined> {
    const row = await selectRun(this.db).where("id", "=", runId).executeTakeFirst();
    return row === undefined ? undefined : runFromRow(row);
  }

  async findRunByKey(loopId: string, key: string): Promise<LoopRunRecord | undefined> {
    const row = await selectRun(this.db)
      .where("loop_id", "=", loopId)
      .where("run_key", "=", key)
      .executeTakeFirst();
    return row === undefined ? undefined : runFromRow(row);
  }

  async listRuns(filter: RunFilter = {}): Promise<LoopRunRecord[]> {
    let query = selectRun(this.db).orderBy("created_at", "desc").orderBy("id", "desc");
    if (filter.loopId !== undefined) query = query.where("loop_id", "=", filter.loopId);
    const states = filter.states ?? (filter.live === true ? LIVE_STATES : undefined);
    if (states !== undefined) query = query.where("state", "in", [...states]);
    if (filter.limit !== undefined) query = query.limit(filter.limit);
    return (await query.execute()).map(runFromRow);
  }

  async liveRunLeases(): Promise<LiveRunLease[]> {
    const rows = await this.db
      .selectFrom("loop_runs")
      .select((eb) => [
        "id",
        "trigger_kind",
        "state",
        "created_at",
        "lease_owner",
        "lease_expires_at",
        eb
          .exists(
            eb
              .selectFrom("loop_commands")
              .select("loop_commands.id")
              .whereRef("loop_commands.run_id", "=", "loop_runs.id")
              .where("loop_commands.settled_at", "is", null),
          )
          .as("commands_waiting"),
      ])
      .where("state", "in", [...LIVE_STATES])
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    return rows.map((row) => ({
      id: row.id,
      trigger: row.trigger_kind as LiveRunLease["trigger"],
      state: row.state as LiveRunLease["state"],
      createdAt: row.created_at,
      leaseOwner: row.lease_owner,
      leaseExpiresAt: row.lease_expires_at === null ? null : Number(row.lease_expires_at),
      // SQLite answers 0 or 1, PostgreSQL a boolean.
      commandsWaiting: Boolean(Number(row.commands_waiting)),
    }));
  }

  async acquireLease(
    runId: string,
    owner: string,
    nowMs: number,
    ttlMs: number,
    takeOverFrom?: string,
  ): Promise<number | null> {
    const claim = takeOverFrom === undefined ? { runId, owner } : { runId, owner, takeOverFrom };
    return this.db.transaction().execute((trx) => claimLease(trx, claim, nowMs, ttlMs));
  }

  async acquireLeases(
    claims: readonly LeaseClaim[],
    nowMs: number,
    ttlMs: number,
  ): Promise<ReadonlyMap<string, number>> {
    if (claims.length === 0) return new Map();
    return this.db.transaction().execute(async (trx) => {
      const granted = new Map<string, number>();
      for (const claim of claims) {
        const token = await claimLease(trx, claim, nowMs, ttlMs);
        if (token !== null) granted.set(claim.runId, token);
      }
      return granted;
    });
  }

  async renewLease(runId: string, token: number, nowMs: number, ttlMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable("loop_runs")
      .set({ lease_expires_at: nowMs + ttlMs })
      .where("id", "=", runId)
      .where("fencing_token", "=", token)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async releaseLease(runId: string, token: number): Promise<void> {
    await this.db
      .updateTable("loop_runs")
      .set({ lease_owner: null, lease_expires_at: null })
      .where("id", "=", runId)
      .where("fencing_token", "=", token)
      .execute();
  }

  async transition(runId: string, token: number, change: StateChange): Promise<LoopRunRecord> {
    return this.db.transaction().execute(async (trx) => {
      const row = await assertToken(trx, runId, token);
      if (row.state !== change.from) throw new StaleStateError(runId, change.from, row.state);
      checkEdge(change.from, change.to, change.via);
      const terminal = isTerminalState(change.to);
      await trx
        .updateTable("loop_runs")
        .set({
          state: change.to,
          cause: terminal ? change.via : null,
          park_reason: change.to === "needs-approval" || change.to === "paused" ? change.via : null,
          paused_from: change.to === "paused" ? (change.pausedFrom ?? change.from) : null,
          state_since: change.at,
          ended_at: terminal ? change.at : null,
          ...(change.meters !== undefined && { meters: JSON.stringify(change.meters) }),
          ...(change.amendments !== undefined && { amendments: JSON.stringify(change.amendments) }),
        })
        .where("id", "=", runId)
        .execute();
      const moved = { from: change.from, to: change.to, via: change.via };
      await this.insertEvent(trx, runId, { type: "run.state", data: moved }, change.at);
      for (const event of change.events ?? []) await this.insertEvent(trx, runId, event, change.at);
      for (const effect of change.effects ?? []) await this.insertEffect(trx, runId, effect, change.at);
      if (change.cursor !== undefined) await this.upsertCursor(trx, change.cursor);
      if (terminal) await this.promoteQueued(trx, row.loop_id, change.at);
      return runFromRow(await selectRun(trx).where("id", "=", runId).executeTakeFirstOrThrow());
    });
  }

  /** FIFO: the loop's oldest queued run starts when a sibling ends. */
  private async promoteQueued(trx: Transaction<StoreDatabase>, loopId: string, at: string): Promise<void> {
    const live = await selectRun(trx)
      .where("loop_id", "=", loopId)
      .where(
        "state",
        "in",
        LIVE_STATES.filter((s) => s !== "queued"),
      )
      .executeTakeFirst();
    if (live !== undefined) return;
    const next = await selectRun(trx)
      .where("loop_id", "=", loopId)
      .where("state", "=", "queued")
      .orderBy("created_at")
      .orderBy("id")
      .executeTakeFirst();
    if (next === undefined) return;
    checkEdge("queued", "running", "promoted");
    await trx
      .updateTable("loop_runs")
      .set({ state: "running", state_since: at })
      .where("id", "=", next.id)
      .execute();
    const promoted = { from: "queued", to: "running", via: "promoted" } as const;
    await this.insertEvent(trx, next.id, { type: "run.state", data: promoted }, at);
  }

  async updateMeters(
    runId: string,
    token: number,
    patch: Pick<StateChange, "meters" | "amendments">,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await assertToken(trx, runId, token);
      await trx
        .updateTable("loop_runs")
        .set({
          ...(patch.meters !== undefined && { meters: JSON.stringify(patch.meters) }),
          ...(patch.amendments !== undefined && { amendments: JSON.stringify(patch.amendments) }),
        })
        .where("id", "=", runId)
        .execute();
    });
  }

  async putGeneration(token: number, record: GenerationRecord): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await assertToken(trx, record.runId, token);
      const row = generationToRow(record);
      await trx
        .insertInto("loop_generations")
        .values(row)
        .onConflict((oc) => oc.columns(["run_id", "number"]).doUpdateSet(row))
        .execute();
    });
  }

  async generations(runId: string, fromNumber = 0): Promise<GenerationRecord[]> {
    const rows = await this.db
      .selectFrom("loop_generations")
      .selectAll()
      .where("run_id", "=", runId)
      .where("number", ">=", fromNumber)
      .orderBy("number")
      .execute();
    return rows.map(generationFromRow);
  }

  async deleteRun(runId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await selectRun(trx).where("id", "=", runId).executeTakeFirst();
      if (row === undefined || isLiveState(row.state as RunStateName)) return false;
      for (const table of ["loop_generations", "loop_messages", "loop_commands", "loop_events"] as const) {
        await trx.deleteFrom(table).where("run_id", "=", runId).execute();
      }
      await trx.deleteFrom("loop_runs").where("id", "=", runId).execute();
      return true;
    });
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}

/**
 * Gives the claim's owner the run's lease until `nowMs + ttlMs`, inside the caller's transaction, and
 * returns the new fencing token; null when the run is gone or another owner's lease runs past `nowMs`
 * (unless that owner is the claim's `takeOverFrom`).
 */
async function claimLease(
  trx: Transaction<StoreDatabase>,
  claim: LeaseClaim,
  nowMs: number,
  ttlMs: number,
): Promise<number | null> {
  const row = await trx
    .selectFrom("loop_runs")
    .select(["lease_owner", "lease_expires_at", "fencing_token"])
    .where("id", "=", claim.runId)
    .executeTakeFirst();
  if (row === undefined) return null;
  const held =
    row.lease_owner !== null && row.lease_owner !== claim.owner && Number(row.lease_expires_at) > nowMs;
  if (held && row.lease_owner !== claim.takeOverFrom) return null;
  const token = Number(row.fencing_token) + 1;
  await trx
    .updateTable("loop_runs")
    .set({ lease_owner: claim.owner, lease_expires_at: nowMs + ttlMs, fencing_token: token })
    .where("id", "=", claim.runId)
    .execute();
  return token;
}

function selectRun(db: Db) {
  return db.selectFrom("loop_runs").selectAll();
}

/** The run's row, when `token` is still its fencing token; a replaced driver gets `LeaseLostError`. */
async function assertToken(trx: Db, runId: string, token: number) {
  const row = await selectRun(trx).where("id", "=", runId).executeTakeFirst();
  if (row === undefined || Number(row.fencing_token) !== token) throw new LeaseLostError(runId);
  return row;
}
