import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { sql } from "kysely";
import { runLoopStoreConformance } from "../../testing/loops-store-conformance/index.ts";
import { MIGRATIONS, migrate } from "./migrations.ts";
import { openSqlite } from "./sqlite-database.ts";
import { openSqliteLoopStore } from "./sqlite-loop-store.ts";

runLoopStoreConformance("sqlite", {
  open: (dir) => openSqliteLoopStore({ path: join(dir, "loops.db") }),
  reopen: (dir) => openSqliteLoopStore({ path: join(dir, "loops.db") }),
});

const dir = mkdtempSync(join(tmpdir(), "loop-migrate-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("a database at an older schema version is backed up before it is migrated", async () => {
  const path = join(dir, "old.db");
  const { db } = await openSqlite(path);
  await sql`create table store_meta (key text primary key, value text not null)`.execute(db);
  await sql`insert into store_meta values ('schema_version', '0')`.execute(db);
  await db.destroy();
  const fresh = await openSqliteLoopStore({ path, now: () => new Date("2026-01-01T00:00:00Z") });
  assert.equal(fresh.migration.from, 0);
  assert.equal(fresh.migration.backup, null, "version 0 has no data to keep");
  await fresh.close();
  const again = await openSqliteLoopStore({ path });
  assert.deepEqual([again.migration.from, again.migration.to, again.migration.backup], [1, 1, null]);
  await again.close();
  const { db: older } = await openSqlite(path);
  await sql`update store_meta set value = '99' where key = 'schema_version'`.execute(older);
  await older.destroy();
  await assert.rejects(openSqliteLoopStore({ path }), /newer than this hankweave/);
  assert.ok(!readdirSync(dir).some((name) => name.startsWith("old.db") && name.endsWith(".bak")));
});

test("an upgrade of a database with data takes a consistent backup first", async () => {
  const path = join(dir, "upgrade.db");
  (await openSqliteLoopStore({ path })).close();
  const { db } = await openSqlite(path);
  const next = [...MIGRATIONS, { version: 2, up: async () => undefined }];
  const report = await migrate(db, path, () => new Date("2026-02-03T04:05:06Z"), next);
  await db.destroy();
  assert.deepEqual([report.from, report.to], [1, 2]);
  assert.ok(report.backup?.endsWith(".v1-2026-02-03T04-05-06.000Z.bak"));
  const { db: copy } = await openSqlite(report.backup ?? "");
  const version = await copy.selectFrom("store_meta").select("value").executeTakeFirst();
  await copy.destroy();
  assert.equal(version?.value, "1");
});
