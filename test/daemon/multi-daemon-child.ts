// A daemon in a process of its own, for the multi-daemon test and the loops-distributed bench: drives
// the runs of a loop store (PostgreSQL, sharing them with the other daemons of that store, or a SQLite
// file) until SIGTERM, which drains it. Prints `ready` once it made its first pass.
// argv: <postgres url | sqlite file> <schema> <home> <workers> [tick ms]
import { startDaemon } from "../../src/daemon/daemon.ts";
import { openPostgresLoopStore } from "../../src/daemon/store/postgres-loop-store.ts";
import { isPostgresUrl } from "../../src/daemon/store/postgres-url.ts";
import { openSqliteLoopStore } from "../../src/daemon/store/sqlite-loop-store.ts";
import { systemClock } from "../../src/util/clock.ts";

const [where, schema, home, workers, tickMs] = process.argv.slice(2);
if (where === undefined || schema === undefined || home === undefined)
  throw new Error(
    "usage: multi-daemon-child <postgres url | sqlite file> <schema> <home> [workers] [tick ms]",
  );
const postgres = isPostgresUrl(where)
  ? await openPostgresLoopStore({ url: where, schema, maxConnections: 4 })
  : null;
const sqlite = postgres === null ? await openSqliteLoopStore({ path: where }) : null;
const store = postgres ?? sqlite;
if (store === null) throw new Error("no store");
const daemon = await startDaemon({
  store,
  dbPath: postgres?.label ?? where,
  stateDir: `${home}/daemon-${process.pid}`,
  home,
  clock: systemClock(),
  env: process.env,
  limitConfig: {},
  tickMs: Number(tickMs ?? 100),
  pollMs: 100,
  workers: Number(workers ?? 0),
  ...(postgres !== null && {
    wakeUps: (wake: () => void) =>
      postgres.listen(wake, (error) => process.stderr.write(`wake-ups stopped: ${error.message}\n`)),
  }),
  ...(sqlite !== null && { wakeUps: async (wake: () => void) => sqlite.watchCommits(wake) }),
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`ready ${daemon.url}\n`);
process.once("SIGTERM", () => {
  void daemon
    .drain()
    .then(() => store.close())
    .then(() => process.exit(0));
});
