import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { isPostgresUrl, redactPostgresUrl } from "../../daemon/store/postgres-url.ts";
import { openSqliteLoopStore } from "../../daemon/store/sqlite-loop-store.ts";
import { type DriverDeps, driverOwner } from "../../loops/coordinator/driver-context.ts";
import { readLimitConfig } from "../../loops/definition/limit-config.ts";
import type { LimitConfig } from "../../loops/model/limits.ts";
import type { LoopStore } from "../../loops/store/loop-store.ts";
import { systemClock } from "../../util/clock.ts";
import type { CliIo } from "../cli-io.ts";

/** Where loops keep their state, and the store and driver setup every verb shares. */
export interface LoopsContext {
  readonly io: CliIo;
  readonly store: LoopStore;
  /** The SQLite file, or the PostgreSQL URL without its password: what messages name. */
  readonly dbPath: string;
  /** Where `daemon.token` and `daemon.json` live: beside the SQLite file, else the home. */
  readonly stateDir: string;
  /** Runs' directories (pinned files, executions) live under `<home>/runs/`. */
  readonly home: string;
  readonly limitConfig: LimitConfig;
  /**
   * `--json`: the verb prints one JSON object on stdout (its result, or the run as it ended) instead of
   * its lines; messages and progress stay on stderr.
   */
  readonly json: boolean;
  /**
   * The daemon's wake-ups (see `DaemonOptions.wakeUps`): PostgreSQL's LISTEN/NOTIFY, SQLite's commits
   * of other processes (`watchCommits`).
   */
  readonly wakeUps?: (wake: () => void) => Promise<() => Promise<void>>;
  /** The store may be shared by daemons on several machines (PostgreSQL): leases expire sooner. */
  readonly sharedStore?: boolean;
  driverDeps(report: boolean): DriverDeps;
  print(line: string): void;
  warn(line: string): void;
}

/** Where the store is and where runs' directories go, as the flags and environment say. */
export interface StoreChoice {
  /** `--store` (a SQLite file or a `postgres://` URL), else `--db`. */
  readonly store?: string | undefined;
  /** `--home`: runs' directories; for PostgreSQL a directory every daemon reaches. */
  readonly home?: string | undefined;
}

/** `--db`, else `HANKWEAVE_LOOPS_DB`, else `~/.hankweave/loops.db`. */
export function dbPathOf(io: CliIo, flag: string | undefined): string {
  const fromEnv = io.env.HANKWEAVE_LOOPS_DB;
  if (flag !== undefined) return resolve(io.cwd, flag);
  if (fromEnv !== undefined && fromEnv !== "") return resolve(io.cwd, fromEnv);
  return join(io.env.HOME ?? homedir(), ".hankweave", "loops.db");
}

/** A PostgreSQL URL from `--store`/`--db` or `HANKWEAVE_LOOPS_STORE`; undefined: the SQLite store. */
function postgresUrlOf(io: CliIo, flag: string | undefined): string | undefined {
  const chosen = flag ?? io.env.HANKWEAVE_LOOPS_STORE;
  return chosen !== undefined && isPostgresUrl(chosen) ? chosen : undefined;
}

async function openStore(
  io: CliIo,
  choice: StoreChoice,
): Promise<Pick<LoopsContext, "store" | "dbPath" | "stateDir" | "home" | "wakeUps" | "sharedStore">> {
  const url = postgresUrlOf(io, choice.store);
  if (url === undefined) {
    const fromEnv = io.env.HANKWEAVE_LOOPS_STORE;
    const dbPath = dbPathOf(io, choice.store ?? (fromEnv === "" ? undefined : fromEnv));
    const store = await openSqliteLoopStore({ path: dbPath });
    if (store.migration.backup !== null)
      io.stderr.write(`Backed up ${dbPath} to ${store.migration.backup} before upgrading it.\n`);
    const home = choice.home === undefined ? join(dirname(dbPath), "loops") : resolve(io.cwd, choice.home);
    const wakeUps = async (wake: () => void) => store.watchCommits(wake);
    return { store, dbPath, stateDir: dirname(dbPath), home, wakeUps };
  }
  // Loaded only here: the SQLite store and `hankweave --help` never load pg.
  const { openPostgresLoopStore } = await import("../../daemon/store/postgres-loop-store.ts");
  const store = await openPostgresLoopStore({ url }).catch((caught: unknown) => {
    const why = caught instanceof Error ? caught.message : String(caught);
    throw new Error(`Cannot open the loop store at ${redactPostgresUrl(url)}: ${why}`);
  });
  const home =
    choice.home === undefined
      ? join(io.env.HOME ?? homedir(), ".hankweave", "loops")
      : resolve(io.cwd, choice.home);
  const wakeUps = (wake: () => void) =>
    store.listen(wake, (error) =>
      io.stderr.write(`Wake-ups from ${store.label} stopped: ${error.message}\n`),
    );
  return { store, dbPath: store.label, stateDir: home, home, wakeUps, sharedStore: true };
}

/**
 * `[loops] store` and `home` of `~/.hankweave/config.toml`, under the flags: the file was checked by
 * `readLimitConfig` already (both are strings when present).
 */
function storeChoiceOf(configPath: string, flags: StoreChoice, env: CliIo["env"]): StoreChoice {
  if (!existsSync(configPath)) return flags;
  const loops = (parseToml(readFileSync(configPath, "utf8")) as { loops?: { store?: string; home?: string } })
    .loops;
  const fromEnv = env.HANKWEAVE_LOOPS_STORE !== undefined && env.HANKWEAVE_LOOPS_STORE !== "";
  const store = flags.store ?? (fromEnv || env.HANKWEAVE_LOOPS_DB ? undefined : loops?.store);
  return { store, home: flags.home ?? loops?.home };
}

export async function openLoopsContext(
  io: CliIo,
  flags: StoreChoice,
  json = false,
): Promise<LoopsContext | string> {
  const configPath = join(io.env.HOME ?? homedir(), ".hankweave", "config.toml");
  const config = readLimitConfig(configPath);
  if (!config.ok) return config.message;
  let opened: Awaited<ReturnType<typeof openStore>>;
  try {
    opened = await openStore(io, storeChoiceOf(configPath, flags, io.env));
  } catch (caught) {
    if (caught instanceof Error && caught.message.startsWith("Cannot open the loop store"))
      return caught.message;
    throw caught;
  }
  const { store } = opened;
  const clock = systemClock();
  const print = (line: string) => io.stdout.write(`${line}\n`);
  const warn = (line: string) => io.stderr.write(`${line}\n`);
  return {
    io,
    ...opened,
    limitConfig: config.config,
    json,
    print,
    warn,
    driverDeps: (report) => ({
      store,
      clock,
      newId: () => randomUUID().slice(0, 8),
      owner: driverOwner(randomUUID().slice(0, 8)),
      env: io.env,
      limitConfig: config.config,
      privateDirs: [opened.stateDir, dirname(opened.dbPath)],
      ...(io.signal !== undefined && { signal: io.signal }),
      ...(report && { report: (line: string) => warn(`  ${line}`) }),
    }),
  };
}
