import type { LoopStore } from "../loops/index.ts";
import type { DriverTallies, Tally } from "./driver-tallies.ts";
import { LoopFiguresReader } from "./loop-figures-reader.ts";
import type { LoopFigures } from "./loop-metrics.ts";

/** What `GET /metrics` answers: the Prometheus text exposition format. */
export interface MetricsPage {
  readonly contentType: string;
  readonly body: string;
}

/** Renders the daemon's metrics; each call reads what changed in the store since the last one. */
export type RenderMetrics = () => Promise<MetricsPage>;

/**
 * The daemon's Prometheus metrics with prom-client, on a registry of its own (never the global one, so
 * two daemons in one process do not mix). prom-client is imported on the first scrape, so a daemon that
 * is never scraped never loads it. Process metrics carry the `hankweave_daemon_` prefix.
 */
export function daemonMetrics(store: LoopStore, tallies: DriverTallies): RenderMetrics {
  let ready: Promise<RenderMetrics> | undefined;
  return () => {
    ready ??= buildRenderer(new LoopFiguresReader(store), tallies);
    return ready.then((render) => render());
  };
}

async function buildRenderer(reader: LoopFiguresReader, tallies: DriverTallies): Promise<RenderMetrics> {
  const prom = await import("prom-client");
  const registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry, prefix: "hankweave_daemon_" });
  const gauge = (name: string, help: string, labelNames: string[]) =>
    new prom.Gauge({ name, help, labelNames, registers: [registry] });
  const metrics = {
    runs: gauge("hankweave_loop_runs", "Loop runs in the store, by state.", ["state"]),
    generations: gauge("hankweave_loop_generations", "Generations recorded, by loop and outcome.", [
      "loop",
      "outcome",
    ]),
    tokens: gauge("hankweave_loop_tokens", "Tokens spent by a loop's generations.", ["loop"]),
    cost: gauge("hankweave_loop_cost_usd", "USD spent by a loop's generations.", ["loop"]),
    wall: gauge("hankweave_loop_wall_seconds", "Wall time of a loop's ended generations.", ["loop"]),
    verdicts: gauge("hankweave_loop_gate_verdicts", "Gate verdicts, by loop, gate and verdict.", [
      "loop",
      "gate",
      "verdict",
    ]),
    blockers: gauge("hankweave_loop_gate_blockers", "Blocking issues reported by a loop's gates.", ["loop"]),
  };
  const counter = (name: string, help: string, labelNames: string[]) =>
    new prom.Counter({ name, help, labelNames, registers: [registry] });
  const takeovers = counter(
    "hankweave_loop_lease_takeovers_total",
    "Leases this daemon took over from a driver that died or let its lease expire.",
    ["loop", "from"],
  );
  const escalations = counter(
    "hankweave_loop_escalations_total",
    "Runs this daemon's drivers parked for a human (needs-approval), by reason.",
    ["loop", "reason"],
  );
  const storeRead = new prom.Histogram({
    name: "hankweave_store_read_seconds",
    help: "Time to read the Loops figures from the store, per scrape.",
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  return async () => {
    const stop = storeRead.startTimer();
    const figures = await reader.read();
    stop();
    for (const metric of Object.values(metrics)) metric.reset();
    setFigures(metrics, figures);
    setTallies(takeovers, tallies.takeovers());
    setTallies(escalations, tallies.escalations());
    return { contentType: registry.contentType, body: await registry.metrics() };
  };
}

type Gauges = Record<
  "runs" | "generations" | "tokens" | "cost" | "wall" | "verdicts" | "blockers",
  { set(labels: Record<string, string>, value: number): void }
>;

function setFigures(metrics: Gauges, figures: LoopFigures): void {
  for (const [state, count] of figures.runsByState) metrics.runs.set({ state }, count);
  for (const [loop, byOutcome] of figures.generations)
    for (const [outcome, count] of byOutcome) metrics.generations.set({ loop, outcome }, count);
  for (const [loop, value] of figures.tokens) metrics.tokens.set({ loop }, value);
  for (const [loop, value] of figures.costUsd) metrics.cost.set({ loop }, value);
  for (const [loop, value] of figures.wallSeconds) metrics.wall.set({ loop }, value);
  for (const [loop, value] of figures.blockers) metrics.blockers.set({ loop }, value);
  for (const [key, count] of figures.gateVerdicts) {
    const [loop = "", gate = "", verdict = ""] = key.split("\t");
    metrics.verdicts.set({ loop, gate, verdict }, count);
  }
}

/** A counter shows the tally as it stands: reset, then raised to it (never lowered between scrapes). */
function setTallies(
  metric: { reset(): void; inc(labels: Record<string, string>, value: number): void },
  tallies: readonly Tally[],
): void {
  metric.reset();
  for (const tally of tallies) metric.inc({ ...tally.labels }, tally.value);
}
