import { randomBytes, randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { type DriverDeps, driverOwner, type LimitConfig, type LoopStore } from "../loops/index.ts";
import type { Clock } from "../util/clock.ts";
import { createApiServer } from "./http-api.ts";
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
  readonly dbPath: string;
  readonly home: string;
  readonly clock: Clock;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly limitConfig: LimitConfig;
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
}

export function tokenPath(dbPath: string): string {
  return join(dirname(dbPath), "daemon.token");
}

/** The API token: read from its 0600 file, or created there. */
export function daemonToken(dbPath: string): string {
  const path = tokenPath(dbPath);
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  mkdirSync(dirname(path), { recursive: true });
  const token = randomBytes(24).toString("hex");
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return token;
}

export async function startDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const token = daemonToken(options.dbPath);
  const newId = () => randomUUID().slice(0, 8);
  const env = options.env;
  const deps = (): DriverDeps => ({
    store: options.store,
    clock: options.clock,
    newId,
    owner: driverOwner(`daemon-${newId()}`),
    env,
    limitConfig: options.limitConfig,
    ...(options.pollMs !== undefined && { pollMs: options.pollMs }),
  });
  const pool = new RunPool(options.store, deps, options.log);
  const scheduler = new Scheduler({
    store: options.store,
    home: options.home,
    clock: options.clock,
    newId,
    limitConfig: options.limitConfig,
    log: options.log,
  });
  const server = createApiServer({ store: options.store, token });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve),
  );
  const address = server.address() as AddressInfo;
  const url = `http://${address.address}:${address.port}`;
  const infoPath = join(dirname(options.dbPath), "daemon.json");
  writeFileSync(
    infoPath,
    JSON.stringify({ url, pid: process.pid, startedAt: new Date(options.clock.now()).toISOString() }),
  );
  let ticking: Promise<void> = Promise.resolve();
  const tick = (): Promise<void> => {
    ticking = ticking.then(async () => {
      await scheduler.refresh();
      await pool.tick(options.clock.now());
    });
    return ticking.catch((caught: unknown) =>
      options.log(`tick failed: ${caught instanceof Error ? caught.message : String(caught)}`),
    );
  };
  const timer = setInterval(() => void tick(), options.tickMs ?? 1000);
  await tick();
  options.log(`daemon listening on ${url} (token in ${tokenPath(options.dbPath)})`);
  return {
    url,
    token,
    tick,
    close: async () => {
      clearInterval(timer);
      scheduler.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ticking.catch(() => undefined);
      rmSync(infoPath, { force: true });
    },
  };
}
