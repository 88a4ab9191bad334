import { existsSync } from "node:fs";
import type { Kysely } from "kysely";
import type { StoreDatabase } from "./store-tables.ts";

/**
 * Versioned migrations. Each runs in its own transaction and records the version it reached; an
 * existing database is backed up (a consistent copy, `VACUUM INTO`) before the first migration that
 * changes it, so a failed upgrade can be undone by putting the copy back.
 */
export interface Migration {
  readonly version: number;
  readonly up: (db: Kysely<StoreDatabase>) => Promise<void>;
}

export const MIGRATIONS: readonly Migration[] = [{ version: 1, up: createTables }];

export const SCHEMA_VERSION = MIGRATIONS.length;

async function createTables(db: Kysely<StoreDatabase>): Promise<void> {
  const s = db.schema;
  await s
    .createTable("loop_runs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("loop_id", "text", (c) => c.notNull())
    .addColumn("run_key", "text", (c) => c.notNull())
    .addColumn("trigger_kind", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("cause", "text")
    .addColumn("park_reason", "text")
    .addColumn("paused_from", "text")
    .addColumn("contract", "text", (c) => c.notNull())
    .addColumn("meters", "text", (c) => c.notNull())
    .addColumn("amendments", "text", (c) => c.notNull())
    .addColumn("dir", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("state_since", "text", (c) => c.notNull())
    .addColumn("ended_at", "text")
    .addColumn("lease_owner", "text")
    .addColumn("lease_expires_at", "bigint")
    .addColumn("fencing_token", "integer", (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint("loop_runs_key", ["loop_id", "run_key"])
    .execute();
  await s.createIndex("loop_runs_loop_state").on("loop_runs").columns(["loop_id", "state"]).execute();
  await s.createIndex("loop_runs_state").on("loop_runs").column("state").execute();
  await s
    .createTable("loop_generations")
    .addColumn("run_id", "text", (c) => c.notNull().references("loop_runs.id").onDelete("cascade"))
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("gen_key", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("facts", "text", (c) => c.notNull())
    .addColumn("layers", "text", (c) => c.notNull())
    .addColumn("body_run_id", "text")
    .addColumn("workspace_tree", "text")
    .addColumn("tokens", "bigint")
    .addColumn("cost_usd", "real")
    .addColumn("read_messages", "text", (c) => c.notNull())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("ended_at", "text")
    .addPrimaryKeyConstraint("loop_generations_pk", ["run_id", "number"])
    .execute();
  await createLogTables(db);
}

async function createLogTables(db: Kysely<StoreDatabase>): Promise<void> {
  const s = db.schema;
  const runRef = "loop_runs.id";
  await s
    .createTable("loop_messages")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("run_id", "text", (c) => c.notNull().references(runRef).onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("author", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("read_by_generation", "integer")
    .execute();
  await s.createIndex("loop_messages_run").on("loop_messages").column("run_id").execute();
  await s
    .createTable("loop_commands")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("run_id", "text", (c) => c.notNull().references(runRef).onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("settled_at", "text")
    .addColumn("outcome", "text")
    .execute();
  await s.createIndex("loop_commands_run").on("loop_commands").columns(["run_id", "settled_at"]).execute();
  await s
    .createTable("loop_events")
    .addColumn("seq", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("run_id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("at", "text", (c) => c.notNull())
    .execute();
  await s.createIndex("loop_events_run").on("loop_events").columns(["run_id", "seq"]).execute();
  await s
    .createTable("loop_effects")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("delivery_id", "text", (c) => c.notNull().unique())
    .addColumn("run_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("delivered_at", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await s
    .createTable("loop_definitions")
    .addColumn("loop_id", "text", (c) => c.primaryKey())
    .addColumn("file", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await s
    .createTable("loop_cursors")
    .addColumn("loop_id", "text", (c) => c.primaryKey())
    .addColumn("cursor", "text")
    .addColumn("last_success_at", "text", (c) => c.notNull())
    .execute();
}

async function currentVersion(db: Kysely<StoreDatabase>): Promise<number> {
  await db.schema
    .createTable("store_meta")
    .ifNotExists()
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
  const row = await db
    .selectFrom("store_meta")
    .select("value")
    .where("key", "=", "schema_version")
    .executeTakeFirst();
  return row === undefined ? 0 : Number(row.value);
}

export interface MigrationReport {
  readonly from: number;
  readonly to: number;
  /** The copy taken before migrating an existing database; null for a new one or when up to date. */
  readonly backup: string | null;
}

/** Brings the database to the latest version. A database newer than this build is refused. */
export async function migrate(
  db: Kysely<StoreDatabase>,
  path: string,
  now: () => Date,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationReport> {
  const from = await currentVersion(db);
  const latest = migrations.at(-1)?.version ?? 0;
  if (from > latest) {
    throw new Error(
      `${path} has loop store schema ${from}, newer than this hankweave (${latest}). Upgrade hankweave.`,
    );
  }
  if (from === latest) return { from, to: from, backup: null };
  let backup: string | null = null;
  if (from > 0 && path !== ":memory:" && existsSync(path)) {
    backup = `${path}.v${from}-${now().toISOString().replaceAll(":", "-")}.bak`;
    const { sql } = await import("kysely");
    await sql`vacuum into ${backup}`.execute(db);
  }
  for (const migration of migrations.filter((m) => m.version > from)) {
    await db.transaction().execute(async (trx) => {
      await migration.up(trx);
      await trx
        .insertInto("store_meta")
        .values({ key: "schema_version", value: String(migration.version) })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value: String(migration.version) }))
        .execute();
    });
  }
  return { from, to: latest, backup };
}
