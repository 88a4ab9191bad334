import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { openSqliteLoopStore, startDaemon } from "../../src/daemon/index.ts";
import { GenerationHistory } from "../../src/loops/coordinator/generation-history.ts";
import { effectiveBudgets, ZERO_METERS } from "../../src/loops/model/budgets.ts";
import type { GateVerdict } from "../../src/loops/model/generation-facts.ts";
import { generationHash } from "../../src/loops/model/generation-hash.ts";
import { decide, noProgressStreak } from "../../src/loops/model/stop-model.ts";
import type { LoopStore } from "../../src/loops/store/loop-store.ts";
import type { GenerationRecord, LoopRunRecord } from "../../src/loops/store/store-records.ts";
import { generation, newRun } from "../../src/testing/loops-store-conformance/store-fixture.ts";
import { systemClock } from "../../src/util/clock.ts";
import { figure } from "../lib/figure.ts";
import type { Suite } from "../lib/suite.ts";

const BENCH = "loops";

/**
 * Loops: the coordinator's own cost per generation (the store reads and writes, hashing and the
 * decision a driver makes around a generation; the body and the gates excluded), on the embedded
 * SQLite store on disk; and what a restart pays in the store to find 1,000 live runs again.
 */
export const loopsSuite: Suite = {
  name: BENCH,
  title: "Loops coordinator overhead",
  async run(context) {
    const dir = join(context.scratch, "loops");
    mkdirSync(dir, { recursive: true });
    const generations = context.quick ? 100 : 500;
    context.log(`  ${generations} generations of one run, coordinator work only`);
    const perGeneration = await coordinatorCost(join(dir, "cost.db"), generations);
    // Constant per generation: the last generations cost what the first ones do.
    const cpuMedian = (values: number[]) => [...values].sort((x, y) => x - y)[values.length >> 1] ?? 0;
    context.log(
      `  CPU median, first 100 generations ${cpuMedian(perGeneration.cpu.slice(0, 100)).toFixed(2)} ms, last 100 ${cpuMedian(perGeneration.cpu.slice(-100)).toFixed(2)} ms`,
    );
    const runs = context.quick ? 200 : 1000;
    context.log(`  ${runs} live runs: reopen the store and list them`);
    const restart = await restartCost(join(dir, "restart.db"), runs);
    context.log(`  a daemon over ${runs} dormant runs: restart to serving, memory over an idle daemon`);
    const daemon = await dormantDaemon(dir, runs);
    return [
      figure(
        {
          bench: BENCH,
          figure: "coordinator-per-generation",
          unit: "ms",
          target: { op: "<=", value: 5 },
          note: "store reads/writes, hash, decision; body and gates excluded",
        },
        perGeneration.wall,
      ),
      figure(
        {
          bench: BENCH,
          figure: "coordinator-cpu-per-generation",
          unit: "ms",
          note: "the same, as the process's CPU time (user + system): what other load on the machine cannot inflate",
        },
        perGeneration.cpu,
      ),
      figure(
        {
          bench: BENCH,
          figure: `store-reopen-list-${runs}-live`,
          unit: "ms",
          note: "open + migrate check + list live runs (the store part of a restart)",
        },
        restart,
      ),
      figure(
        {
          bench: BENCH,
          figure: `daemon-restart-to-serving-${runs}-live`,
          unit: "ms",
          target: { op: "<=", value: 2000 },
          note: "startDaemon (store open, first schedule and driver pass, API listening) until /health answers",
        },
        daemon.restartMs,
      ),
      figure(
        {
          bench: BENCH,
          figure: `daemon-rss-${runs}-dormant`,
          unit: "MB",
          target: { op: "<=", value: 50 },
          note: "RSS over the same daemon with no runs, after 5 passes (watching, paused, needs-approval, queued)",
        },
        daemon.extraMb,
      ),
    ];
  },
};

/** One generation's coordinator steps, in the order the driver takes them. */
/** Wall time and this process's CPU time (user + system) of each boundary, in ms. */
async function coordinatorCost(path: string, count: number): Promise<{ wall: number[]; cpu: number[] }> {
  const store = await openSqliteLoopStore({ path });
  await store.admitRun(newRun("bench"), { concurrency: "allow", initial: "running" });
  const token = (await store.acquireLease("bench", "bench", Date.now(), 60_000)) ?? 0;
  const wall: number[] = [];
  const cpu: number[] = [];
  // As a driver does: the whole history once, then only from the last generation on.
  const history = new GenerationHistory(store, "bench");
  for (let n = 1; n <= count; n += 1) {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    await boundary(store, history, token, n);
    const used = process.cpuUsage(cpuBefore);
    wall.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000);
  }
  await store.close();
  return { wall, cpu };
}

async function boundary(
  store: LoopStore,
  generations: GenerationHistory,
  token: number,
  n: number,
): Promise<void> {
  const run = (await store.getRun("bench")) as LoopRunRecord;
  const history = await generations.read();
  await store.pendingCommands("bench");
  const messages = await store.messages("bench");
  const facts = history.map((g) => g.facts);
  decide({
    limits: { ...run.contract.limits, iteration_cap: 0, window: 30 },
    gates: [],
    history: facts,
    meters: run.meters,
    budgets: effectiveBudgets(run.contract.limits, run.amendments),
    onExceeded: "halt",
    unreadOperatorMessages: messages.filter((m) => m.readByGeneration === null).length,
    stopRequested: false,
    pauseRequested: false,
  });
  const meters = { ...ZERO_METERS, generations: n, noProgress: noProgressStreak(facts, 3) };
  await store.updateMeters("bench", token, { meters });
  const at = new Date().toISOString();
  const started: GenerationRecord = generation("bench", n, { startedAt: at });
  await store.putGeneration(token, started);
  await store.markRead("bench", token, [], n);
  await store.appendEvent(
    "bench",
    token,
    "generation.started",
    { number: n, key: started.key, inbox: [] },
    at,
  );
  // (the body and the gates run here)
  const gates: GateVerdict[] = [
    { gateId: "tests", verdict: "revise", blockerIds: [`B-${n}`], summary: "1 failing" },
  ];
  const hash = generationHash(["workspace", "gates"], { workspaceTree: `tree-${n}`, gates });
  await store.messages("bench");
  await store.putGeneration(token, {
    ...started,
    state: "completed",
    facts: { number: n, body: { kind: "completed" }, gates, hash },
    endedAt: at,
  });
  await store.appendEvent(
    "bench",
    token,
    "generation.ended",
    { number: n, state: "completed", gates, hash, tokens: null },
    at,
  );
}

async function restartCost(path: string, runs: number): Promise<number[]> {
  const seed = await openSqliteLoopStore({ path });
  for (let i = 0; i < runs; i += 1) {
    await seed.admitRun(newRun(`r${i}`, `loop-${i}`), {
      concurrency: "allow",
      initial: i % 2 === 0 ? "watching" : "running",
    });
  }
  await seed.close();
  const samples: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const started = performance.now();
    const store = await openSqliteLoopStore({ path });
    const live = await store.listRuns({ live: true, limit: runs * 2 });
    if (live.length !== runs) throw new Error(`expected ${runs} live runs, got ${live.length}`);
    samples.push(performance.now() - started);
    await store.close();
  }
  return samples;
}

const DORMANT = ["watching", "paused", "needs-approval", "queued"] as const;

/** Seeds `runs` dormant runs (every live state but running), then restarts a daemon over them. */
async function dormantDaemon(dir: string, runs: number): Promise<{ restartMs: number[]; extraMb: number[] }> {
  const empty = await daemonRss(join(dir, "empty.db"), 0);
  const full = await daemonRss(join(dir, "dormant.db"), runs);
  return {
    restartMs: full.restartMs,
    extraMb: full.rssMb.map((mb, i) => mb - (empty.rssMb[i] ?? empty.rssMb[0] ?? 0)),
  };
}

async function daemonRss(path: string, runs: number): Promise<{ restartMs: number[]; rssMb: number[] }> {
  const seed = await openSqliteLoopStore({ path });
  for (let i = 0; i < runs; i += 1) await seedDormant(seed, i);
  await seed.close();
  const restartMs: number[] = [];
  const rssMb: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    const started = performance.now();
    const store = await openSqliteLoopStore({ path });
    const daemon = await startDaemon({
      store,
      dbPath: path,
      home: join(path, "..", "home"),
      clock: systemClock(),
      env: {},
      limitConfig: {},
      tickMs: 60_000,
      log: () => undefined,
    });
    const health = await fetch(`${daemon.url}/health`);
    if (!health.ok) throw new Error("the daemon does not answer");
    restartMs.push(performance.now() - started);
    for (let t = 0; t < 5; t += 1) await daemon.tick();
    rssMb.push(process.memoryUsage().rss / 2 ** 20);
    await daemon.close();
    await store.close();
  }
  return { restartMs, rssMb };
}

/** A live run parked in one of the dormant states, moved there along the state table. */
async function seedDormant(store: LoopStore, i: number): Promise<void> {
  const state = DORMANT[i % DORMANT.length] ?? "watching";
  const id = `d${i}`;
  if (state === "queued") {
    await store.admitRun(newRun(`${id}-first`, `loop-${i}`), { concurrency: "allow", initial: "watching" });
    await store.admitRun(newRun(id, `loop-${i}`), { concurrency: "queue", initial: "running" });
    return;
  }
  await store.admitRun(newRun(id, `loop-${i}`), {
    concurrency: "allow",
    initial: state === "watching" ? "watching" : "running",
  });
  if (state === "watching") return;
  const token = (await store.acquireLease(id, "seed", 0, 1)) ?? 0;
  const at = new Date().toISOString();
  if (state === "paused")
    await store.transition(id, token, { from: "running", to: "paused", via: "operator_pause", at });
  else await store.transition(id, token, { from: "running", to: "needs-approval", via: "human_gate", at });
  await store.releaseLease(id, token);
}
