import type { Kysely } from "kysely";
import type { StoreDatabase } from "./store-tables.ts";

/**
 * Wake-ups for daemons on PostgreSQL: triggers notify a channel when there may be work to claim (a run
 * admitted, a run changing state, a lease handed back, an operator command), and each daemon listens
 * on a connection of its own and makes a pass at once instead of at its next tick. The tick stays: it
 * is what notices a lease that expired because its holder's machine died. Notifications are sent at
 * commit, and identical ones of one transaction are folded into one.
 */
export const WAKE_CHANNEL = "hankweave_loops";

/** Installs (or replaces) the wake-up triggers; idempotent, run under the migration lock. */
export async function installWakeTriggers(db: Kysely<StoreDatabase>): Promise<void> {
  const { sql } = await import("kysely");
  const statements = [
    sql`create or replace function hankweave_wake() returns trigger language plpgsql as $$
      begin perform pg_notify(${sql.lit(WAKE_CHANNEL)}, ''); return null; end $$`,
    sql`create or replace trigger loop_runs_admitted after insert on loop_runs
      for each row execute function hankweave_wake()`,
    sql`create or replace trigger loop_runs_changed after update of state, lease_owner on loop_runs
      for each row when (old.state is distinct from new.state
        or (new.lease_owner is null and old.lease_owner is not null))
      execute function hankweave_wake()`,
    sql`create or replace trigger loop_commands_added after insert on loop_commands
      for each row execute function hankweave_wake()`,
  ];
  for (const statement of statements) await statement.execute(db);
}

/**
 * Listens for wake-ups on a dedicated connection; resolves to a function that stops listening. A
 * broken connection is reported through `onError` and not reopened: the daemon's tick goes on.
 */
export async function listenForWakeUps(
  url: string,
  onWake: () => void,
  onError: (error: Error) => void,
): Promise<() => Promise<void>> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  client.on("error", onError);
  client.on("notification", (message) => {
    if (message.channel === WAKE_CHANNEL) onWake();
  });
  await client.connect();
  await client.query(`listen ${WAKE_CHANNEL}`);
  return async () => {
    await client.end().catch(() => undefined);
  };
}
