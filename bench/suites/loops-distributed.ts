import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { openPostgresLoopStore } from "../../src/daemon/store/postgres-loop-store.ts";
import { isPostgresUrl } from "../../src/daemon/store/postgres-url.ts";
import { openSqliteLoopStore } from "../../src/daemon/store/sqlite-loop-store.ts";
import type { LoopStore } from "../../src/loops/store/loop-store.ts";
import { startTestPostgres } from "../../src/testing/postgres-server.ts";
import {
  admitCopies,
  bundleDaemon,
  type DaemonProcess,
  ONE_GENERATION,
  spawnDaemon,
} from "../../test/daemon/multi-daemon-fixture.ts";
import { type LoopFixture, loopFixture } from "../../test/loops/loop-fixture.ts";
import { type FigureLine, figure } from "../lib/figure.ts";
import type { Suite } from "../lib/suite.ts";

const BENCH = "loops-distributed";
/** Runs each daemon drives at a time. */
const WORKERS = 2;
/** A real daemon's tick: what claim latency is without wake-ups. */
const TICK_MS = 1000;

/**
 * Several daemons sharing one queue of Loops: generations per second with 1, 2 and 4 daemon processes
 * on one PostgreSQL store (scripted one-codon bodies, a command gate that passes once the body ran:
 * one generation per run, the runner, git checkpoints and gate processes included), and claim latency
 * (a run admitted while daemons are idle until a daemon holds its lease); the same on SQLite with one
 * daemon for comparison. PostgreSQL is a private throwaway cluster (or HANKWEAVE_TEST_POSTGRES_URL).
 */
export const loopsDistributedSuite: Suite = {
  name: BENCH,
  title: "Loops on PostgreSQL: several daemons sharing the work",
  async run(context) {
    const server = await startTestPostgres({ ...context.env, CI: "" });
    if (!server.ok) {
      context.log(`  skipped: no PostgreSQL (${server.reason})`);
      return [];
    }
    const bundle = await bundleDaemon();
    const fx = await loopFixture(ONE_GENERATION);
    const runs = context.quick ? 12 : 40;
    const claims = context.quick ? 5 : 20;
    try {
      const figures: FigureLine[] = [];
      for (const daemons of [1, 2, 4]) {
        context.log(`  PostgreSQL, ${daemons} daemon(s) x ${WORKERS} workers, ${runs} runs`);
        const target = { fx, bundle: bundle.path, where: server.url, schema: `throughput_${daemons}` };
        figures.push(rate(`postgres-${daemons}-daemons`, await throughput(target, daemons, runs)));
      }
      context.log(`  SQLite, 1 daemon x ${WORKERS} workers, ${runs} runs`);
      const sqlite = { fx, bundle: bundle.path, where: join(fx.dir, "throughput.db"), schema: "" };
      figures.push(rate("sqlite-1-daemon", await throughput(sqlite, 1, runs)));
      context.log(`  claim latency: ${claims} runs admitted one at a time to idle daemons`);
      const pgClaims = { fx, bundle: bundle.path, where: server.url, schema: "claims" };
      figures.push(...latency("postgres-2-daemons", await claimLatency(pgClaims, 2, claims)));
      const liteClaims = { fx, bundle: bundle.path, where: join(fx.dir, "claims.db"), schema: "" };
      figures.push(...latency("sqlite-1-daemon", await claimLatency(liteClaims, 1, claims)));
      return figures;
    } finally {
      bundle.remove();
      await fx.remove();
      await server.stop();
    }
  },
};

interface Target {
  readonly fx: LoopFixture;
  readonly bundle: string;
  readonly where: string;
  readonly schema: string;
}

async function openStore(target: Target): Promise<LoopStore> {
  return isPostgresUrl(target.where)
    ? openPostgresLoopStore({ url: target.where, schema: target.schema, maxConnections: 2 })
    : openSqliteLoopStore({ path: target.where });
}

async function withDaemons<T>(
  target: Target,
  count: number,
  home: string,
  work: (store: LoopStore) => Promise<T>,
): Promise<T> {
  const store = await openStore(target);
  const daemons: DaemonProcess[] = [];
  try {
    for (let i = 0; i < count; i += 1)
      daemons.push(
        spawnDaemon({
          bundle: target.bundle,
          url: target.where,
          schema: target.schema,
          home,
          workers: WORKERS,
          env: target.fx.deps().env,
          tickMs: TICK_MS,
        }),
      );
    await Promise.all(daemons.map((d) => d.ready));
    return await work(store);
  } finally {
    for (const daemon of daemons) daemon.child.kill("SIGKILL");
    await Promise.all(daemons.map((d) => d.exited));
    await store.close();
  }
}

/** Generations per second: runs admitted before the daemons start, timed from ready to all ended. */
async function throughput(target: Target, daemons: number, runs: number): Promise<number> {
  const home = join(target.fx.dir, `home-${target.schema || "sqlite"}-${daemons}`);
  mkdirSync(home, { recursive: true });
  const store = await openStore(target);
  await admitCopies(target.fx.dir, store, home, runs);
  await store.close();
  return withDaemons(target, daemons, home, async (watch) => {
    const start = performance.now();
    while ((await watch.listRuns({ live: true, limit: runs })).length > 0) await sleep(20);
    const seconds = (performance.now() - start) / 1000;
    let generations = 0;
    for (const run of await watch.listRuns({ limit: runs })) generations += run.meters.generations;
    return generations / seconds;
  });
}

/** Per run: from its admission (returned) until a daemon holds its lease, polled every 5 ms. */
async function claimLatency(target: Target, daemons: number, count: number): Promise<number[]> {
  const home = join(target.fx.dir, `claims-${target.schema || "sqlite"}`);
  mkdirSync(home, { recursive: true });
  return withDaemons(target, daemons, home, async (store) => {
    const samples: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const [run] = await admitCopies(target.fx.dir, store, home, 1, `claim-${i}`);
      if (run === undefined) throw new Error("no run admitted");
      // From the admission's commit (a daemon may claim the run before admitRun has returned: ~0).
      const admitted = performance.now();
      for (;;) {
        const record = await store.getRun(run.id);
        if (record?.leaseOwner !== null && record?.leaseOwner !== undefined) break;
        await sleep(5);
      }
      samples.push(performance.now() - admitted);
      while ((await store.listRuns({ live: true, limit: 10 })).length > 0) await sleep(20);
    }
    return samples;
  });
}

function rate(name: string, perSecond: number): FigureLine {
  return figure(
    {
      bench: BENCH,
      figure: `${name}-generations-per-s`,
      unit: "gen/s",
      better: "higher",
      note: `${WORKERS} workers per daemon; one-codon scripted body and a command gate per generation`,
    },
    [perSecond],
  );
}

function latency(name: string, samples: readonly number[]): FigureLine[] {
  const sorted = [...samples].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
  const note = `admission to lease held; ${TICK_MS} ms tick${name.startsWith("postgres") ? ", LISTEN/NOTIFY wake-ups" : ""}`;
  return [
    figure({ bench: BENCH, figure: `${name}-claim-latency`, unit: "ms", note }, samples),
    figure({ bench: BENCH, figure: `${name}-claim-latency-p99`, unit: "ms", note }, [p99]),
  ];
}
