import { randomBytes, randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import {
  type DriverDeps,
  driverOwner,
  type LimitConfig,
  type LoopStore,
  withoutSecret,
} from "../loops/index.ts";
import type { Clock } from "../util/clock.ts";
import { daemonMetrics } from "./daemon-metrics.ts";
import { DriverTallies } from "./driver-tallies.ts";
import { createApiServer } from "./http-api.ts";
import { startLoopTracing } from "./loop-tracing.ts";
import { RunPool } from "./run-pool.ts";
import { Scheduler } from "./scheduler.ts";

/**
 * `hankweave daemon`: the long-lived process of Loops. Every tick it refreshes the schedules and
 * gives a driver to each live run that needs one; it serves the loopback HTTP API and SSE stream,
 * protected by a token kept in a 0600 file beside the store (bodies never see it: their environment
 * is built without it). `daemon.json` beside the store says where it listens.
 */
export interface DaemonOptions {
  readonly store: LoopStore;
  /** The SQLite file; `daemon.token` and `daemon.json` go beside it unless `stateDir` is given. */
  readonly dbPath: string;
  /** Where `daemon.token` and `daemon.json` go (a PostgreSQL store has no file to put them beside). */
  readonly stateDir?: string;
  /** Runs driven at a time (`--workers`); 0 or absent: no limit. */
  readonly workers?: number;
  /**
   * How long a driver's lease outlives its last renewal (default 30 s). Daemons on several machines
   * need it longer than a body's runtime lock takes to go stale with no heartbeat (120 s): a daemon
   * taking over the run of a dead machine must find that lock stale, or the resumed generation would
   * be refused. A dead driver on the same machine is replaced at once whatever this is.
   */
  readonly leaseTtlMs?: number;
  /**
   * Subscribes to the store's wake-ups (PostgreSQL: LISTEN/NOTIFY); each one makes a pass at once.
   * Resolves to an unsubscribe. The tick goes on regardless.
   */
  readonly wakeUps?: (wake: () => void) => Promise<() => Promise<void>>;
  readonly home: string;
  readonly clock: Clock;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly limitConfig: LimitConfig;
  /** The built web app served under `/ui/` (default: the package's `dist/web`, when built). */
  readonly webAssetsDir?: string;
  /** Default 127.0.0.1: the API is loopback only unless asked otherwise. */
  readonly host?: string;
  /** Default 0: any free port (written to daemon.json). */
  readonly port?: number;
  readonly tickMs?: number;
  readonly pollMs?: number;
  readonly log: (line: string) => void;
}

export interface RunningDaemon {
  readonly url: string;
  readonly token: string;
  /** One scheduling and driving pass now (the timer does it every `tickMs`). */
  tick(): Promise<void>;
  /**
   * Stops scheduling and the API. Drivers in flight are not stopped: their runs stay live, and the
   * next daemon resumes them as after a crash (an interrupted generation goes on from its codon).
   */
  close(): Promise<void>;
  /**
   * A graceful stop (SIGTERM): claims no more runs, lets each drive finish the generation under way
   * and hands its run back (live, lease released) to another daemon, then closes.
   */
  drain(): Promise<void>;
  /**
   * Resolves once every drive in flight has returned: after `close`, the drives it left (a run stopped
   * by a command meanwhile ends its drive at its next boundary). An embedder that removes the store's
   * or the runs' directories waits for it first.
   */
  settled(): Promise<void>;
}

/** Where the daemon's token and address files go: `stateDir`, else beside the SQLite file. */
function stateDirOf(options: Pick<DaemonOptions, "dbPath" | "stateDir">): string {
  return options.stateDir ?? dirname(options.dbPath);
}

export function tokenPath(dbPath: string, stateDir?: string): string {
  return join(stateDir ?? dirname(dbPath), "daemon.token");
}

/** The API token: read from its 0600 file, or created there. */
export function daemonToken(dbPath: string, stateDir?: string): string {
  const path = tokenPath(dbPath, stateDir);
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  mkdirSync(dirname(path), { recursive: true });
  const token = randomBytes(24).toString("hex");
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return token;
}

export async function startDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const token = daemonToken(options.dbPath, options.stateDir);
  const newId = () => randomUUID().slice(0, 8);
  // No driver, so no body, gate or hook, ever holds the token in its environment.
  const env = withoutSecret(options.env, token);
  const tallies = new DriverTallies();
  const deps = (): DriverDeps => ({
    store: options.store,
    clock: options.clock,
    newId,
    owner: driverOwner(`daemon-${newId()}`),
    env,
    limitConfig: options.limitConfig,
    // A sandbox hides the daemon's directory (its token) and the store's.
    privateDirs: [stateDirOf(options), dirname(options.dbPath)],
    ...(options.pollMs !== undefined && { pollMs: options.pollMs }),
    ...(options.leaseTtlMs !== undefined && { leaseTtlMs: options.leaseTtlMs }),
    notice: tallies.notice,
  });
  const pool = new RunPool(options.store, deps, options.log, {
    ...(options.workers !== undefined && { workers: options.workers }),
  });
  const scheduler = new Scheduler({
    store: options.store,
    home: options.home,
    clock: options.clock,
    newId,
    limitConfig: options.limitConfig,
    log: options.log,
  });
  const server = createApiServer({
    store: options.store,
    token,
    limitConfig: options.limitConfig,
    ...(options.webAssetsDir !== undefined && { webAssetsDir: options.webAssetsDir }),
    starts: { home: options.home, clock: options.clock },
    metrics: daemonMetrics(options.store, tallies),
    ...(options.host !== undefined && { host: options.host }),
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve),
  );
  const address = server.address() as AddressInfo;
  const url = `http://${address.address}:${address.port}`;
  mkdirSync(stateDirOf(options), { recursive: true });
  const infoPath = join(stateDirOf(options), "daemon.json");
  writeFileSync(
    infoPath,
    JSON.stringify({ url, pid: process.pid, startedAt: new Date(options.clock.now()).toISOString() }),
  );
  const loopTracing = await startLoopTracing(options.store, options.env, "daemon");
  let ticking: Promise<void> = Promise.resolve();
  const tick = (): Promise<void> => {
    ticking = ticking.then(async () => {
      await scheduler.refresh();
      await pool.tick(options.clock.now());
      await loopTracing?.poll();
    });
    return ticking.catch((caught: unknown) =>
      options.log(`tick failed: ${caught instanceof Error ? caught.message : String(caught)}`),
    );
  };
  const timer = setInterval(() => void tick(), options.tickMs ?? 1000);
  const unsubscribe = options.wakeUps === undefined ? null : await options.wakeUps(wakeOnce(tick));
  await tick();
  const tokenFile = tokenPath(options.dbPath, options.stateDir);
  options.log(`daemon listening on ${url} (token in ${tokenFile})`);
  options.log(`Loops pages: ${url}/ui/?token=<the token in ${tokenFile}>`);
  const close = async () => {
    clearInterval(timer);
    await unsubscribe?.();
    scheduler.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await ticking.catch(() => undefined);
    await loopTracing?.poll().catch(() => undefined);
    await loopTracing?.close();
    rmSync(infoPath, { force: true });
  };
  return {
    url,
    token,
    tick,
    close,
    settled: () => pool.settle(),
    drain: async () => {
      clearInterval(timer);
      await unsubscribe?.();
      scheduler.stop();
      await ticking.catch(() => undefined);
      await pool.drain();
      await close();
    },
  };
}

/**
 * A wake-up handler: one pass at a time, and a wake-up during a pass makes one more after it, so a
 * burst of notifications costs two passes and none is missed.
 */
function wakeOnce(tick: () => Promise<void>): () => void {
  let passing = false;
  let again = false;
  return () => {
    if (passing) {
      again = true;
      return;
    }
    passing = true;
    void (async () => {
      do {
        again = false;
        await tick();
      } while (again);
      passing = false;
    })();
  };
}
