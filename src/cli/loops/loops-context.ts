import { randomUUID } from "node:crypto";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { openSqliteLoopStore } from "../../daemon/index.ts";
import { type DriverDeps, driverOwner, type LoopStore, readLimitConfig } from "../../loops/index.ts";
import type { LimitConfig } from "../../loops/model/limits.ts";
import { systemClock } from "../../util/clock.ts";
import type { CliIo } from "../cli-io.ts";

/** Where loops keep their state, and the store and driver setup every verb shares. */
export interface LoopsContext {
  readonly io: CliIo;
  readonly store: LoopStore;
  readonly dbPath: string;
  /** Runs' directories (pinned files, executions) live under `<home>/runs/`. */
  readonly home: string;
  readonly limitConfig: LimitConfig;
  driverDeps(report: boolean): DriverDeps;
  print(line: string): void;
  warn(line: string): void;
}

/** `--db`, else `HANKWEAVE_LOOPS_DB`, else `~/.hankweave/loops.db`. */
export function dbPathOf(io: CliIo, flag: string | undefined): string {
  const fromEnv = io.env.HANKWEAVE_LOOPS_DB;
  if (flag !== undefined) return resolve(io.cwd, flag);
  if (fromEnv !== undefined && fromEnv !== "") return resolve(io.cwd, fromEnv);
  return join(io.env.HOME ?? homedir(), ".hankweave", "loops.db");
}

export async function openLoopsContext(
  io: CliIo,
  dbFlag: string | undefined,
): Promise<LoopsContext | string> {
  const dbPath = dbPathOf(io, dbFlag);
  const config = readLimitConfig(join(io.env.HOME ?? homedir(), ".hankweave", "config.toml"));
  if (!config.ok) return config.message;
  const store = await openSqliteLoopStore({ path: dbPath });
  if (store.migration.backup !== null)
    io.stderr.write(`Backed up ${dbPath} to ${store.migration.backup} before upgrading it.\n`);
  const clock = systemClock();
  const print = (line: string) => io.stdout.write(`${line}\n`);
  const warn = (line: string) => io.stderr.write(`${line}\n`);
  return {
    io,
    store,
    dbPath,
    home: join(dirname(dbPath), "loops"),
    limitConfig: config.config,
    print,
    warn,
    driverDeps: (report) => ({
      store,
      clock,
      newId: () => randomUUID().slice(0, 8),
      owner: driverOwner(randomUUID().slice(0, 8)),
      env: io.env,
      limitConfig: config.config,
      ...(io.signal !== undefined && { signal: io.signal }),
      ...(report && { report: (line: string) => warn(`  ${line}`) }),
    }),
  };
}
