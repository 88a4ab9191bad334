/**
 * The WebSocket server's cost: event-to-client latency with 10 clients while a 1,000-iteration loop
 * runs, and the run's time per codon with 10 clients attached against no server at all (target: at
 * most 10 % more). Loopback only.
 *
 * Each measurement runs in a fresh process (`node --import tsx bench/suites/server.ts case <json>`);
 * the 10 clients run in another (`… clients <json>`), as scripts and pages do, so their parsing does
 * not count as the server's. The run is the runner's real path with the journal and state.json but
 * in-memory checkpoints: git's cost per codon would hide the server's.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createMemoryCheckpointer } from "../../src/checkpoint/index.ts";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { type ExecutionOptions, runExecution } from "../../src/runner/index.ts";
import { connectClient, LiveExecution, setUpAccess, startServer } from "../../src/server/index.ts";
import { writeHank } from "../cases/hank-fixture.ts";
import { childEnv } from "../lib/child-env.ts";
import { startClientsProcess } from "../lib/clients-process.ts";
import { atMost, type FigureLine, figure } from "../lib/figure.ts";
import { percentile } from "../lib/stats.ts";
import type { Suite, SuiteContext } from "../lib/suite.ts";
import { startPlainFanOut } from "./server-floor.ts";

const BENCH = "server";
const CLIENTS = 10;
const SELF = fileURLToPath(import.meta.url);
type Config = "no-server" | "server" | "clients" | "batched-clients" | "floor" | "batched-floor";
const CONFIGS: readonly Config[] = [
  "no-server",
  "server",
  "clients",
  "batched-clients",
  "floor",
  "batched-floor",
];

interface CaseResult {
  readonly codons: number;
  readonly perCodonMs: number;
  /** CPU time of the run's process (the server's work included, the clients' not) per codon. */
  readonly cpuPerCodonMs: number;
  /** Event-to-client latencies (ms) pooled over every client, when clients were attached. */
  readonly latency?: {
    readonly median: number;
    readonly p99: number;
    readonly samples: number;
    readonly events: number;
  };
}

export const serverSuite: Suite = {
  name: BENCH,
  title: "WebSocket server (latency and per-codon overhead with 10 clients)",
  async run(context) {
    const iterations = context.quick ? 200 : 1000;
    const repeat = context.quick ? 1 : 5;
    const runs: Record<Config, CaseResult[]> = {
      "no-server": [],
      server: [],
      clients: [],
      "batched-clients": [],
      floor: [],
      "batched-floor": [],
    };
    for (let round = 0; round < repeat; round++) {
      for (const config of CONFIGS) {
        context.log(`  ${config}, ${iterations} iterations (${round + 1}/${repeat})`);
        runs[config].push(await runChild(context, "case", { config, iterations }));
      }
    }
    return figures(runs);
  },
};

function figures(runs: Record<Config, CaseResult[]>): FigureLine[] {
  const spec = (name: string, unit: string, note?: string) => ({
    bench: BENCH,
    figure: name,
    unit,
    ...(note !== undefined && { note }),
  });
  const of = (config: Config, pick: (run: CaseResult) => number) => runs[config].map(pick);
  const ratio = (pick: (run: CaseResult) => number, config: Config = "clients") =>
    runs[config].map((run, i) => pick(run) / pick(runs["no-server"][i] ?? run));
  const wall = (run: CaseResult) => run.perCodonMs;
  const cpu = (run: CaseResult) => run.cpuPerCodonMs;
  const latenciesOf = (config: Config) =>
    runs[config].flatMap((run) => (run.latency === undefined ? [] : [run.latency]));
  const latencies = latenciesOf("clients");
  const batched = latenciesOf("batched-clients");
  return [
    figure(
      spec("per-codon/no-server", "ms/codon", "runExecution alone: journal, state.json, memory checkpoints"),
      of("no-server", wall),
    ),
    figure(spec("per-codon/server-no-client", "ms/codon"), of("server", wall)),
    figure(
      spec("per-codon/10-clients", "ms/codon", "10 readonly clients in another process"),
      of("clients", wall),
    ),
    figure(spec("overhead/10-clients-vs-no-server", "x"), ratio(wall)),
    figure(
      {
        ...spec(
          "overhead/10-clients-above-floor",
          "x",
          "the overhead less the transport floor's, round by round",
        ),
        target: atMost(0.1),
      },
      aboveFloor(ratio(wall), ratio(wall, "floor")),
    ),
    figure(
      spec(
        "per-codon/10-batched-clients",
        "ms/codon",
        "10 readonly clients with batchEvents (as the web page)",
      ),
      of("batched-clients", wall),
    ),
    figure(
      spec("overhead/10-batched-clients-vs-no-server", "x", "live events in event.batch frames"),
      ratio(wall, "batched-clients"),
    ),
    figure(
      {
        ...spec("overhead/10-batched-clients-above-floor", "x", "the same, batched, less the batched floor"),
        target: atMost(0.1),
      },
      aboveFloor(ratio(wall, "batched-clients"), ratio(wall, "batched-floor")),
    ),
    figure(
      spec(
        "floor/10-clients-vs-no-server",
        "x",
        "the same run, its events sent to 10 clients through plain ws instead of our server",
      ),
      ratio(wall, "floor"),
    ),
    figure(
      spec("floor/10-batched-clients-vs-no-server", "x", "the same with one event.batch frame per write"),
      ratio(wall, "batched-floor"),
    ),
    figure(
      spec("cpu-per-codon/no-server", "ms/codon", "CPU time of the run's process"),
      of("no-server", cpu),
    ),
    figure(
      spec("cpu-per-codon/10-clients", "ms/codon", "the server's work included, the clients' not"),
      of("clients", cpu),
    ),
    figure(spec("cpu-overhead/10-clients-vs-no-server", "x"), ratio(cpu)),
    figure(
      spec(
        "cpu-overhead/10-clients-above-floor",
        "x",
        "the same in CPU time less the floor's: what a loaded machine stretches least",
      ),
      aboveFloor(ratio(cpu), ratio(cpu, "floor")),
    ),
    figure(
      spec("cpu-overhead/10-batched-clients-above-floor", "x"),
      aboveFloor(ratio(cpu, "batched-clients"), ratio(cpu, "batched-floor")),
    ),
    figure(
      spec("latency/median", "ms", "journal append to a client's message handler, every event of the loop"),
      latencies.map((l) => l.median),
    ),
    figure(
      spec("latency/p99", "ms"),
      latencies.map((l) => l.p99),
    ),
    figure(
      spec("latency/batched-median", "ms", "the same with batchEvents: up to one write interval (8 ms) more"),
      batched.map((l) => l.median),
    ),
    figure(
      spec("latency/batched-p99", "ms"),
      batched.map((l) => l.p99),
    ),
  ];
}

/** Each round's overhead less the same round's transport floor (issue 32: at most 0.1). */
function aboveFloor(overheads: readonly number[], floors: readonly number[]): number[] {
  return overheads.map((overhead, i) => overhead - (floors[i] ?? 1));
}

/** Runs this file in a fresh process in the given mode; resolves with the JSON of its last stdout line. */
function runChild<R>(context: SuiteContext, mode: "case", args: object): Promise<R> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", SELF, mode, JSON.stringify(args)], {
      cwd: context.repoRoot,
      env: childEnv(context.env),
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    child.on("close", (code) => {
      const last = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0) reject(new Error(`bench server ${mode} exited ${code}`));
      else resolve(JSON.parse(last) as R);
    });
  });
}

/** A hank of one loop of no-op codons, in a fresh directory, and the run options over it. */
function prepare(iterations: number): { dir: string; options: ExecutionOptions } {
  const dir = mkdtempSync(join(tmpdir(), "hankweave-bench-server-"));
  const hankDir = writeHank(join(dir, "hank"), { shape: { kind: "loop", iterations }, prompt: "Done." });
  const options: ExecutionOptions = {
    hank: hankDir,
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    model: "scripted",
    execution: join(dir, "exec"),
    headless: true,
    checkpointer: (layout, clock) => createMemoryCheckpointer({ workTree: layout.agentRoot, clock }),
  };
  return { dir, options };
}

const at = (): number => performance.timeOrigin + performance.now();

/** Times the run from `RunStarted` to its end, and when each event was published. */
function timing() {
  const published = new Map<number, number>();
  let started = 0;
  let ended = 0;
  let cpuStart = process.cpuUsage();
  let cpu = { user: 0, system: 0 };
  let codons = 0;
  const listener = (event: JournaledEvent): void => {
    const now = at();
    published.set(event.seq, now);
    if (event.type === "codon.completed") codons += 1;
    if (event.type !== "state.transition") return;
    if (event.data.transitionType === "RunStarted") {
      started = now;
      cpuStart = process.cpuUsage();
    }
    if (event.data.transitionType === "RunCompleted" || event.data.transitionType === "RunFailed") {
      ended = now;
      cpu = process.cpuUsage(cpuStart);
    }
  };
  const perCodon = (ms: number) => ms / Math.max(1, codons);
  const result = () => ({
    codons,
    perCodonMs: perCodon(ended - started),
    cpuPerCodonMs: perCodon((cpu.user + cpu.system) / 1000),
  });
  return { listener, published, result };
}

async function benchCase(args: { config: Config; iterations: number }): Promise<CaseResult> {
  const { dir, options } = prepare(args.iterations);
  try {
    const times = timing();
    if (args.config === "no-server") {
      await runExecution({ ...options, listeners: [(event) => times.listener(event)] });
      return times.result();
    }
    if (args.config === "floor" || args.config === "batched-floor") {
      return await floorCase(options, times, args.config === "batched-floor");
    }
    const host = new LiveExecution({ execution: options, stayOpen: false });
    host.events.subscribe(times.listener);
    const access = setUpAccess({});
    if (!access.ok) throw new Error(access.message);
    const server = await startServer({ execution: host, access: access.policy, serverVersion: "bench" });
    const clients =
      args.config === "server"
        ? undefined
        : await startClients(server.url, args.config === "batched-clients");
    host.start(server.port);
    await host.ended;
    await server.close();
    const receipts = clients === undefined ? undefined : await clients.receipts;
    return {
      ...times.result(),
      ...(receipts !== undefined && { latency: latency(receipts, times.published) }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same run with its events sent to 10 plain `ws` clients by a listener instead of our server. */
async function floorCase(
  options: ExecutionOptions,
  times: ReturnType<typeof timing>,
  batchEvents: boolean,
): Promise<CaseResult> {
  const fanOut = await startPlainFanOut({ clients: CLIENTS, batchEvents, self: SELF });
  await runExecution({
    ...options,
    listeners: [
      (event) => {
        times.listener(event);
        fanOut.send(event);
      },
    ],
  });
  await fanOut.close();
  return times.result();
}

/** Starts the clients' process; resolves once all are connected, with a promise of their receipts. */
async function startClients(
  url: string,
  batchEvents: boolean,
): Promise<{ readonly receipts: Promise<number[][][]> }> {
  const clients = await startClientsProcess(SELF, "clients", { url, count: CLIENTS, batchEvents });
  return { receipts: clients.report.then((line) => JSON.parse(line ?? "[]") as number[][][]) };
}

function latency(receipts: number[][][], published: Map<number, number>): NonNullable<CaseResult["latency"]> {
  const samples: number[] = [];
  for (const client of receipts) {
    for (const [seq, receivedAt] of client) {
      const sent = published.get(seq ?? 0);
      if (sent !== undefined && receivedAt !== undefined) samples.push(receivedAt - sent);
    }
  }
  return {
    median: percentile(samples, 50),
    p99: percentile(samples, 99),
    samples: samples.length,
    events: published.size,
  };
}

/** The clients' process: connects, prints `ready`, records [seq, time] per event, prints them when closed. */
async function clientsMain(args: { url: string; count: number; batchEvents: boolean }): Promise<void> {
  const receipts: number[][][] = [];
  const clients = await Promise.all(
    Array.from({ length: args.count }, async (_, i) => {
      const client = await connectClient({ url: args.url, mode: "readonly", batchEvents: args.batchEvents });
      const mine: number[][] = [];
      receipts[i] = mine;
      client.onFrame((frame) => {
        if (frame.kind === "event") mine.push([frame.event.seq, at()]);
      });
      return client;
    }),
  );
  process.stdout.write("ready\n");
  await Promise.all(clients.map((client) => client.closed));
  process.stdout.write(`${JSON.stringify(receipts)}\n`);
}

const [mode, json] = process.argv.slice(2);
if (process.argv[1] === SELF && mode !== undefined) {
  const args = JSON.parse(json ?? "{}");
  if (mode === "clients") await clientsMain(args);
  else process.stdout.write(`${JSON.stringify(await benchCase(args))}\n`);
}
