import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { DatabaseConnection, Driver, Kysely, SqliteDatabase } from "kysely";
import type Database from "libsql";
import type { StoreDatabase } from "./store-tables.ts";

/**
 * SQLite through Kysely over libsql (prebuilt, with better-sqlite3's API): WAL so that readers (the
 * verbs, `ls`, `show`) never wait for the driver, a busy timeout so that two processes writing at once
 * wait instead of failing, and write transactions that take the write lock up front (`begin
 * immediate`), so two writers never deadlock upgrading a read lock. Both libraries are imported on
 * first use: the CLI bundle keeps them outside, and only the loops commands need them.
 */
export interface OpenedDatabase {
  readonly db: Kysely<StoreDatabase>;
  readonly raw: Database.Database;
}

const BUSY_TIMEOUT_MS = 10_000;

export async function openSqlite(path: string): Promise<OpenedDatabase> {
  const [{ default: LibsqlDatabase }, kysely] = await Promise.all([import("libsql"), import("kysely")]);
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const raw = new LibsqlDatabase(path);
  try {
    raw.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    raw.pragma("journal_mode = WAL");
    // WAL with NORMAL survives a process crash with every committed transaction; only a power loss can
    // drop the last few, which the journal of each body (the truth for its generation) tolerates.
    raw.pragma("synchronous = NORMAL");
    raw.pragma("foreign_keys = ON");
  } catch (error) {
    // The first statements are where a file that is no database (or a damaged one) shows: name it.
    raw.close();
    throw Object.assign(error as object, { path, syscall: "open" });
  }
  class ImmediateSqliteDialect extends kysely.SqliteDialect {
    override createDriver(): Driver {
      const driver = super.createDriver();
      driver.beginTransaction = async (connection: DatabaseConnection) => {
        await connection.executeQuery(kysely.CompiledQuery.raw("begin immediate"));
      };
      return driver;
    }
  }
  const db = new kysely.Kysely<StoreDatabase>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(raw) }),
  });
  return { db, raw };
}

/** Distinct statements the store keeps prepared; its queries have a few dozen shapes. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * The database as Kysely sees it, with its statements prepared once per SQL text: Kysely prepares every
 * query it runs, and preparing was most of the coordinator's store cost per generation. A statement is
 * run to completion (`all`/`run`) before the next query starts (one connection, awaited in turn), so
 * reusing it is safe. Least recently used statements are dropped beyond the cache size.
 */
function withStatementCache(raw: Database.Database): SqliteDatabase {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => raw.close(),
    prepare: (sql) => {
      let statement = cache.get(sql);
      if (statement === undefined) {
        statement = raw.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value ?? "");
      } else cache.delete(sql);
      cache.set(sql, statement);
      return statement;
    },
  };
}
