import type { JournaledEvent } from "../events/events.ts";

/** What one scrape of a run's server answers: the Prometheus text exposition format. */
export interface MetricsText {
  readonly contentType: string;
  readonly body: string;
}

/** One attempt's end, waiting for the next scrape to be counted. */
interface AttemptEnd {
  readonly outcome: string;
  readonly seconds: number;
  readonly costUsd: number;
}

/**
 * The codon counters and durations of a run's server (`GET /metrics`), with prom-client on a registry
 * of its own. Events are folded as they are journaled into a small buffer of observations; prom-client
 * is imported on the first scrape (a server nobody scrapes never loads it), which drains the buffer
 * into the metrics. Counts start when the server starts (Prometheus treats a restart as a reset).
 */
export class RunMetrics {
  private started = 0;
  private readonly ends: AttemptEnd[] = [];
  private readonly tokens = { input: 0, output: 0, cache_read: 0, cache_write: 0 };
  private renderer: Promise<(drain: RunMetrics["drain"]) => Promise<MetricsText>> | undefined;

  readonly onEvent = (event: JournaledEvent): void => {
    if (event.type === "codon.started") this.started += 1;
    else if (event.type === "codon.completed") {
      const { data } = event;
      const outcome = data.endReasons?.codon ?? (data.success ? "completed" : "error");
      this.ends.push({ outcome, seconds: data.duration / 1000, costUsd: data.cost });
    } else if (event.type === "token.usage") {
      this.tokens.input += event.data.inputTokens;
      this.tokens.output += event.data.outputTokens;
      this.tokens.cache_read += event.data.cacheReadTokens;
      this.tokens.cache_write += event.data.cacheCreationTokens;
    }
  };

  render(): Promise<MetricsText> {
    this.renderer ??= buildRenderer();
    return this.renderer.then((render) => render(() => this.drain()));
  }

  /** What happened since the last scrape; resets the buffer. */
  private drain() {
    const taken = {
      started: this.started,
      ends: this.ends.splice(0),
      tokens: { ...this.tokens },
    };
    this.started = 0;
    for (const kind of Object.keys(this.tokens) as (keyof RunMetrics["tokens"])[]) this.tokens[kind] = 0;
    return taken;
  }
}

async function buildRenderer() {
  const prom = await import("prom-client");
  const registry = new prom.Registry();
  const registers = [registry];
  const started = new prom.Counter({
    name: "hankweave_codon_attempts_started_total",
    help: "Codon attempts started.",
    registers,
  });
  const ended = new prom.Counter({
    name: "hankweave_codon_attempts_total",
    help: "Codon attempts ended, by how the codon ended (completed, error, aborted, ...).",
    labelNames: ["outcome"],
    registers,
  });
  const duration = new prom.Histogram({
    name: "hankweave_codon_attempt_duration_seconds",
    help: "Wall time of codon attempts, by outcome.",
    labelNames: ["outcome"],
    buckets: [1, 5, 15, 60, 300, 900, 3600],
    registers,
  });
  const cost = new prom.Counter({
    name: "hankweave_cost_usd_total",
    help: "USD spent by codon attempts.",
    registers,
  });
  const tokens = new prom.Counter({
    name: "hankweave_tokens_total",
    help: "Model tokens, by kind.",
    labelNames: ["kind"],
    registers,
  });
  return async (drain: () => ReturnType<RunMetrics["drain"]>): Promise<MetricsText> => {
    const taken = drain();
    started.inc(taken.started);
    for (const end of taken.ends) {
      ended.inc({ outcome: end.outcome });
      duration.observe({ outcome: end.outcome }, end.seconds);
      cost.inc(end.costUsd);
    }
    for (const [kind, count] of Object.entries(taken.tokens)) tokens.inc({ kind }, count);
    return { contentType: registry.contentType, body: await registry.metrics() };
  };
}
