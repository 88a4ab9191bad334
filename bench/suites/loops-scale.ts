import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { LoopStore } from "../../src/loops/store/loop-store.ts";
import {
  admitCopies,
  bundleDaemon,
  type DaemonProcess,
  spawnDaemon,
} from "../../test/daemon/multi-daemon-fixture.ts";
import { countGate, INCREMENT, type LoopFixture, loopFixture } from "../../test/loops/loop-fixture.ts";
import { claimedAt, cpuPercentOver, sampleProcess, seedDormant } from "../cases/loops-scale-daemon.ts";
import { builtBin } from "../lib/built-bin.ts";
import { childEnv } from "../lib/child-env.ts";
import { atMost, type FigureLine, figure } from "../lib/figure.ts";
import { percentile } from "../lib/stats.ts";
import type { Suite, SuiteContext } from "../lib/suite.ts";

const BENCH = "loops-scale";
/** A real daemon's tick: claims wait for it when nothing wakes the daemon. */
const TICK_MS = 1000;

/** Sizes: admitted runs in all, of which watching + parked, running at once; the rest queued. */
interface Shape {
  readonly total: number;
  readonly watching: number;
  readonly parked: number;
  readonly running: number;
}

/**
 * A thousand Loops on one daemon (SQLite store, loopback only, bounded in count and time): 400 watching
 * runs each with a queued run behind it, 100 parked (paused or waiting for an approval), then 100
 * real Loops admitted at once and run together (a scripted body: an 8 s sleep and a count, a command
 * gate that passes after one generation; the runner, git checkpoints and the gate process included).
 * The daemon is a process of its own (100 workers, a 1 s tick); its RSS and CPU come from `/proc`.
 */
export const loopsScaleSuite: Suite = {
  name: BENCH,
  title: "A thousand Loops on one daemon (watching, parked, queued, 100 running)",
  async run(context) {
    const shape: Shape = context.quick
      ? { total: 200, watching: 80, parked: 20, running: 20 }
      : { total: 1000, watching: 400, parked: 100, running: 100 };
    // Long enough that the measurements "while they run" fall inside the bodies' sleep.
    const fx = await loopFixture({
      body: [`@sleep ${context.quick ? 4000 : 8000}`, INCREMENT],
      toml: `[contract]\ngoal = "count to 1"\n[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`,
      scripts: { "check.sh": countGate(1) },
    });
    const bundle = await bundleDaemon();
    try {
      context.log(
        `  seeding ${shape.watching} watching + ${shape.watching} queued + ${shape.parked} parked runs`,
      );
      await seedDormant(fx.store, shape.watching, shape.parked);
      const daemon = spawnDaemon({
        bundle: bundle.path,
        url: join(fx.dir, "loops.db"),
        schema: "",
        home: fx.home,
        workers: shape.running,
        env: fx.deps().env,
        tickMs: TICK_MS,
      });
      try {
        return await measure(context, fx, daemon, shape);
      } finally {
        daemon.child.kill("SIGKILL");
        await daemon.exited;
      }
    } finally {
      bundle.remove();
      await fx.remove();
    }
  },
};

async function measure(
  context: SuiteContext,
  fx: LoopFixture,
  daemon: DaemonProcess,
  shape: Shape,
): Promise<FigureLine[]> {
  await daemon.ready;
  const pid = daemon.child.pid ?? 0;
  // The daemon child keeps its address and token in `<home>/daemon-<pid>/`.
  const stateDir = join(fx.home, `daemon-${pid}`);
  const { url } = JSON.parse(readFileSync(join(stateDir, "daemon.json"), "utf8")) as { url: string };
  const token = readFileSync(join(stateDir, "daemon.token"), "utf8").trim();
  await sleep(3000);
  context.log("  dormant only: CPU over 10 s");
  const idleCpu = await cpuPercentOver(pid, 10_000);
  const idleRss = sampleProcess(pid).rssMb;
  const idleApi = await apiTimes(url, token, 5);
  const idleLs = await lsTimes(context, fx, 3);
  context.log(`  admitting ${shape.running} Loops at once`);
  const peak = trackPeakRss(pid);
  const admitted: Array<{ id: string; at: number }> = [];
  for (const run of await admitCopies(fx.dir, fx.store, fx.home, shape.running)) {
    admitted.push({ id: run.id, at: performance.now() });
  }
  const claims = await claimedAt(
    fx.store,
    admitted.map((a) => a.id),
    20,
    60_000,
  );
  const latencies = admitted.flatMap((a) => {
    const at = claims.get(a.id);
    return at === undefined ? [] : [at - a.at];
  });
  context.log(`  ${claims.size} of ${shape.running} claimed; while they run: the API and loops ls`);
  const busyCpu = await cpuPercentOver(pid, 2000);
  const busyApi = await apiTimes(url, token, 5);
  const busyLs = await lsTimes(context, fx, 3);
  const drained = await untilEnded(fx.store, admitted.length, 120_000);
  const peakRss = peak.stop();
  context.log(
    `  ${drained.ended} ended in ${(drained.ms / 1000).toFixed(1)} s; peak RSS ${peakRss.toFixed(0)} MB`,
  );
  const spec = (name: string, unit: string, note: string) => ({ bench: BENCH, figure: name, unit, note });
  const runs = `${shape.total} admitted`;
  return [
    figure({ ...spec("daemon-rss-peak", "MB", `${runs}, ${shape.running} running`), target: atMost(500) }, [
      peakRss,
    ]),
    figure(spec("daemon-rss-dormant", "MB", `${runs} but none running`), [idleRss]),
    figure(
      {
        ...spec("cpu-dormant", "% of a core", "over 10 s, only watching/parked/queued runs"),
        target: atMost(2),
      },
      [idleCpu],
    ),
    figure(spec("cpu-running", "% of a core", `over 2 s, ${shape.running} bodies running`), [busyCpu]),
    figure(
      {
        ...spec(
          "claim-latency-p99",
          "ms",
          `admission to a driver's lease, ${claims.size} runs admitted at once`,
        ),
        target: atMost(100),
      },
      [percentile(latencies, 99)],
    ),
    figure(spec("claim-latency", "ms", `the same, each run; a ${TICK_MS} ms tick`), latencies),
    figure(
      {
        ...spec("catalog-api/dormant", "ms", "GET /runs and /loops together, as the catalog page"),
        target: atMost(300),
      },
      idleApi,
    ),
    figure(
      {
        ...spec("catalog-api/running", "ms", `the same while ${shape.running} bodies run`),
        target: atMost(300),
      },
      busyApi,
    ),
    figure(
      {
        ...spec("loops-ls/dormant", "ms", "hankweave loops ls, spawn to exit (node start included)"),
        target: atMost(300),
      },
      idleLs,
    ),
    figure(
      {
        ...spec("loops-ls/running", "ms", `the same while ${shape.running} bodies run`),
        target: atMost(300),
      },
      busyLs,
    ),
    figure(spec("running-drained", "s", `${drained.ended} of ${shape.running} ended`), [drained.ms / 1000]),
  ];
}

/** What the catalog page waits for: `/runs` and `/loops`, fetched together. */
async function apiTimes(url: string, token: string, rounds: number): Promise<number[]> {
  const headers = { authorization: `Bearer ${token}` };
  const times: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const started = performance.now();
    const answers = await Promise.all([
      fetch(`${url}/runs`, { headers }),
      fetch(`${url}/loops`, { headers }),
    ]);
    for (const answer of answers) {
      if (!answer.ok) throw new Error(`${answer.url}: ${answer.status}`);
      await answer.arrayBuffer();
    }
    times.push(performance.now() - started);
  }
  return times;
}

/** `hankweave loops ls --db <store>` (the built bin), spawn to exit. */
async function lsTimes(context: SuiteContext, fx: LoopFixture, runs: number): Promise<number[]> {
  const bin = builtBin(context);
  const once = (): Promise<number> =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const child = spawn(process.execPath, [bin, "loops", "--db", join(fx.dir, "loops.db"), "ls"], {
        env: childEnv(context.env),
        stdio: "ignore",
      });
      child.on("close", (code) =>
        code === 0 ? resolve(performance.now() - started) : reject(new Error(`loops ls exited ${code}`)),
      );
    });
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) times.push(await once());
  return times;
}

/** Samples the daemon's RSS every 250 ms until stopped; returns the largest. */
function trackPeakRss(pid: number): { stop(): number } {
  let peak = sampleProcess(pid).rssMb;
  const timer = setInterval(() => {
    peak = Math.max(peak, sampleProcess(pid).rssMb);
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, sampleProcess(pid).rssMb);
    },
  };
}

/** Waits (bounded) until the admitted real runs have ended. */
async function untilEnded(
  store: LoopStore,
  count: number,
  limitMs: number,
): Promise<{ ended: number; ms: number }> {
  const started = performance.now();
  for (;;) {
    const runs = await store.listRuns({ limit: 2000 });
    const ended = runs.filter((run) => run.id.startsWith("loop-") && run.endedAt !== null).length;
    if (ended >= count || performance.now() - started > limitMs)
      return { ended, ms: performance.now() - started };
    await sleep(250);
  }
}
