import { type MigrationReport, migrate } from "./migrations.ts";
import { openPostgres, type PostgresConnectOptions, STORE_MIGRATION_LOCK } from "./postgres-database.ts";
import { redactPostgresUrl } from "./postgres-url.ts";
import { installWakeTriggers, listenForWakeUps } from "./postgres-wake-ups.ts";
import { SqliteLoopStore } from "./sqlite-loop-store.ts";

/**
 * The loop store on PostgreSQL, for several daemons (on several machines) sharing one queue of work.
 * It runs the very queries of the SQLite store: they are dialect-neutral Kysely, and the connection
 * (`openPostgres`) gives them SQLite's guarantee that one write transaction runs at a time, so leases,
 * fencing tokens, admission and queue promotion behave exactly as the contract says on both stores
 * (one implementation, one conformance suite). Claiming a run is taking its lease: the first daemon
 * to take it drives it, every other one gets `null` and moves on. Daemons are woken by LISTEN/NOTIFY
 * when work appears, so a run is claimed at once rather than at the next tick.
 */
export type PostgresLoopStore = SqliteLoopStore & {
  readonly migration: MigrationReport;
  /** Where the store is, without its password. */
  readonly label: string;
  /** Calls `onWake` when there may be work to claim (see `postgres-wake-ups.ts`); resolves to a stop. */
  listen(onWake: () => void, onError: (error: Error) => void): Promise<() => Promise<void>>;
};

export interface PostgresStoreOptions extends PostgresConnectOptions {
  readonly now?: () => Date;
}

/**
 * Opens (and migrates) a PostgreSQL loop store. Daemons that start together migrate once: the
 * migration runs under a session advisory lock. There is no automatic backup before an upgrade (the
 * SQLite store copies its file): take one with `pg_dump` before upgrading hankweave.
 */
export async function openPostgresLoopStore(options: PostgresStoreOptions): Promise<PostgresLoopStore> {
  const [{ db }, { sql }] = await Promise.all([openPostgres(options), import("kysely")]);
  const label = redactPostgresUrl(options.url);
  try {
    const migration = await db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(${sql.lit(STORE_MIGRATION_LOCK)})`.execute(connection);
      try {
        const report = await migrate(connection, label, options.now ?? (() => new Date()));
        await installWakeTriggers(connection);
        return report;
      } finally {
        await sql`select pg_advisory_unlock(${sql.lit(STORE_MIGRATION_LOCK)})`.execute(connection);
      }
    });
    const listen = (onWake: () => void, onError: (error: Error) => void) =>
      listenForWakeUps(options.url, onWake, onError);
    return Object.assign(new SqliteLoopStore(db), { migration, label, listen });
  } catch (caught) {
    await db.destroy();
    throw caught;
  }
}
