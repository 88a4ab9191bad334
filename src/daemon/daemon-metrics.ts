import type { LoopStore } from "../loops/index.ts";
import { type LoopFigures, readLoopFigures } from "./loop-metrics.ts";

/** What `GET /metrics` answers: the Prometheus text exposition format. */
export interface MetricsPage {
  readonly contentType: string;
  readonly body: string;
}

/** Renders the daemon's metrics; each call reads the store afresh. */
export type RenderMetrics = () => Promise<MetricsPage>;

/**
 * The daemon's Prometheus metrics with prom-client, on a registry of its own (never the global one, so
 * two daemons in one process do not mix). prom-client is imported on the first scrape, so a daemon that
 * is never scraped never loads it. Process metrics carry the `hankweave_daemon_` prefix.
 */
export function daemonMetrics(store: LoopStore): RenderMetrics {
  let ready: Promise<RenderMetrics> | undefined;
  return () => {
    ready ??= buildRenderer(store);
    return ready.then((render) => render());
  };
}

async function buildRenderer(store: LoopStore): Promise<RenderMetrics> {
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
  const storeRead = new prom.Histogram({
    name: "hankweave_store_read_seconds",
    help: "Time to read the Loops figures from the store, per scrape.",
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  return async () => {
    const stop = storeRead.startTimer();
    const figures = await readLoopFigures(store);
    stop();
    for (const metric of Object.values(metrics)) metric.reset();
    setFigures(metrics, figures);
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
