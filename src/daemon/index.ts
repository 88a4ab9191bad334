/** The long-lived side of Loops: the embedded SQLite store and the daemon (drivers, schedules, HTTP API). */

export { type DaemonOptions, daemonToken, type RunningDaemon, startDaemon, tokenPath } from "./daemon.ts";
export { type MigrationReport, SCHEMA_VERSION } from "./store/migrations.ts";
export { openSqliteLoopStore, SqliteLoopStore, type SqliteStoreOptions } from "./store/sqlite-loop-store.ts";
