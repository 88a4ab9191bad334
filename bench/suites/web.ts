/**
 * The web app's execution page in a real Chromium (Debian's, headless), served by the run server:
 *
 * - `first-paint/100k-history`: a fresh page on a finished execution of about 100,000 journaled events
 *   (10,000 with `--quick`), from navigation to the run shown whole (the outcome banner, and the header
 *   counting every event): the page asks for the newest page of history with the run view before it
 *   (history paging), not for the whole journal. Target (issue 32): at most 1 s.
 * - `attach/100k-history`: `hankweave --attach` (the built bin) on that execution, from spawn to its
 *   exit (a watcher exits once the run it shows has ended): the same paging in the TUI. Target: 1 s.
 * - `follow/lag-*`: a page open while a 1,000-iteration scripted loop runs: for every event count the
 *   page shows (the header's `<n> events`), the time from the run publishing that event to the page
 *   showing it. `lag-growth` is the median lag over the last tenth of the run against the first tenth:
 *   a page that falls behind shows a growing lag (target: at most 2).
 * - `browser/ms-per-message`: context for both: a bare script in the same Chromium, without the app,
 *   takes the same history one event per WebSocket message; its time per message is what the browser
 *   itself costs, the floor under a page that would take its events one message each (the app asks for
 *   live events in `event.batch` frames, one per server write, for that reason).
 *
 * In-process runs with in-memory checkpoints, so the figures are the page's, the browser's and the
 * server's.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Browser } from "playwright-core";
import { createMemoryCheckpointer } from "../../src/checkpoint/index.ts";
import type { JournaledEvent } from "../../src/journal/index.ts";
import type { ExecutionOptions } from "../../src/runner/index.ts";
import { LiveExecution, setUpAccess, startServer } from "../../src/server/index.ts";
import { launchBrowser } from "../../test/web/support.ts";
import { writeHank } from "../cases/hank-fixture.ts";
import { builtBin } from "../lib/built-bin.ts";
import { childEnv } from "../lib/child-env.ts";
import { atMost, type FigureLine, figure } from "../lib/figure.ts";
import { percentile } from "../lib/stats.ts";
import type { Suite, SuiteContext } from "../lib/suite.ts";

const BENCH = "web";
/** One iteration of this loop journals 10 events: 1,000 iterations make about 10,000. */
const ITERATIONS = 1000;
/** The long history of the first paint and `--attach`: about 100,000 events. */
const LONG_ITERATIONS = 10_000;

export const webSuite: Suite = {
  name: BENCH,
  title: "Web app (first paint and --attach of a 100,000-event history, following a 1,000-iteration loop)",
  async run(context) {
    const { bundleWeb } = (await import(join(context.repoRoot, "scripts", "bundle-web.mjs"))) as {
      bundleWeb: (outDir: string) => Promise<string>;
    };
    const assets = await bundleWeb(join(context.scratch, "web"));
    const browser = await launchBrowser();
    try {
      const paint = await firstPaint(context, browser, assets);
      const follow = await followLoop(context, browser, assets);
      return [...paint, ...follow];
    } finally {
      await browser.close();
    }
  },
};

interface Served {
  readonly url: string;
  /** When the run published each event (epoch ms), by seq. */
  readonly published: Map<number, number>;
  readonly ended: Promise<void>;
  /** Starts the run (after a page is open, to follow it live). */
  start(): void;
  close(): Promise<void>;
}

const now = (): number => performance.timeOrigin + performance.now();

/** A loop of `iterations` scripted codons behind the server, which keeps serving once the run ends. */
async function serveLoop(assets: string, iterations: number): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), "hankweave-bench-web-"));
  writeHank(join(dir, "hank"), {
    shape: { kind: "loop", iterations },
    prompt: "@say done\n@usage input=10 output=5",
  });
  const execution: ExecutionOptions = {
    hank: join(dir, "hank"),
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    model: "scripted",
    execution: join(dir, "exec"),
    headless: true,
    checkpointer: (layout, clock) => createMemoryCheckpointer({ workTree: layout.agentRoot, clock }),
  };
  const host = new LiveExecution({ execution, stayOpen: true });
  const published = new Map<number, number>();
  let finish: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => {
    finish = resolve;
  });
  host.events.subscribe((event: JournaledEvent) => {
    published.set(event.seq, now());
    if (event.type === "state.transition" && /^Run(Completed|Failed)$/.test(event.data.transitionType))
      finish();
  });
  const access = setUpAccess({});
  if (!access.ok) throw new Error(access.message);
  const server = await startServer({
    execution: host,
    access: access.policy,
    serverVersion: "bench",
    webAssetsDir: assets,
  });
  return {
    url: `http://localhost:${server.port}/ui/`,
    published,
    ended,
    start: () => host.start(server.port),
    async close() {
      host.forceShutdown("bench over");
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function firstPaint(context: SuiteContext, browser: Browser, assets: string): Promise<FigureLine[]> {
  const served = await serveLoop(assets, context.quick ? ITERATIONS : LONG_ITERATIONS);
  served.start();
  await served.ended;
  const events = served.published.size;
  const samples: number[] = [];
  const floor: number[] = [];
  let attach: number[] = [];
  try {
    attach = await attachTimes(context, served.url, context.quick ? 2 : 5);
    for (let round = 0; round < (context.quick ? 2 : 5); round++) {
      const page = await browser.newPage();
      const started = now();
      await page.goto(served.url);
      await page.locator('[data-outcome="completed"]').waitFor({ timeout: 60_000 });
      await page.locator(`.connection:has-text("${events} events")`).waitFor({ timeout: 60_000 });
      samples.push(now() - started);
      // The same history one event per message, to a bare script on the page's origin.
      const afterSeq = Math.max(0, events - RAW_HISTORY_EVENTS);
      floor.push(((await page.evaluate(RAW_HISTORY_SCRIPT(afterSeq))) as number) / (events - afterSeq));
      await page.close();
    }
  } finally {
    await served.close();
  }
  context.log(`  first paint of ${events} events: ${samples.map((s) => s.toFixed(0)).join(", ")} ms`);
  return [
    figure(
      {
        bench: BENCH,
        figure: "first-paint/100k-history",
        unit: "ms",
        target: atMost(1000),
        note: `${events} events, navigation to the whole run shown (history paging)`,
      },
      samples,
    ),
    figure(
      {
        bench: BENCH,
        figure: "attach/100k-history",
        unit: "ms",
        target: atMost(1000),
        note: `${events} events, hankweave --attach from spawn to exit (bundled bin, node start included)`,
      },
      attach,
    ),
    figure(
      {
        bench: BENCH,
        figure: "browser/ms-per-message",
        unit: "ms",
        note: "a bare WebSocket script, the last 10,000 events one per message: the browser's own cost",
      },
      floor,
    ),
  ];
}

/**
 * `hankweave --attach --port <p>` on the served execution, spawned `runs` times after a warm-up: ms
 * from spawn to exit. `NODE_EXTRA_CA_CERTS` is left out, as for every process the bench starts.
 */
async function attachTimes(context: SuiteContext, url: string, runs: number): Promise<number[]> {
  const bin = builtBin(context);
  const port = new URL(url).port;
  // Spawned, never spawnSync: the server that answers it runs in this process.
  const once = (): Promise<number> =>
    new Promise((resolve, reject) => {
      const started = now();
      const child = spawn(process.execPath, [bin, "--attach", "--port", port], {
        env: childEnv(context.env),
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      child.on("close", (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(now() - started);
        else reject(new Error(`--attach exited ${code}: ${stderr}`));
      });
    });
  await once();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) times.push(await once());
  return times;
}

/** Milliseconds a bare script takes to receive the last 10,000 events one per message. */
const RAW_HISTORY_EVENTS = 10_000;
const RAW_HISTORY_SCRIPT = (afterSeq: number) => `new Promise((resolve) => {
  const started = performance.now();
  const socket = new WebSocket("ws://" + location.host + "/");
  socket.onopen = () => socket.send(JSON.stringify({ type: "handshake", data: { mode: "readonly", sendPreviousEvents: false } }));
  socket.onmessage = (message) => {
    const frame = JSON.parse(message.data);
    if (frame.type === "handshake.response") socket.send(JSON.stringify({ id: "1", type: "history.sync", data: { afterSeq: ${afterSeq} } }));
    if (frame.type === "history.batch" && !frame.data.hasMore) { socket.close(); resolve(performance.now() - started); }
  };
})`;

/** Records, in the page, when each event count first shows in the header. */
const WATCH_SCRIPT = `(() => {
  window.__shown = [];
  const target = document.querySelector(".connection");
  const record = () => {
    const n = Number((target.textContent.match(/(\\d+) events/) || [])[1]);
    if (n > 0) window.__shown.push([n, performance.timeOrigin + performance.now()]);
  };
  new MutationObserver(record).observe(target, { childList: true, subtree: true, characterData: true });
})()`;

async function followLoop(context: SuiteContext, browser: Browser, assets: string): Promise<FigureLine[]> {
  const served = await serveLoop(assets, context.quick ? 200 : ITERATIONS);
  const page = await browser.newPage();
  try {
    await page.goto(served.url);
    await page.locator(".connection").waitFor();
    await page.evaluate(WATCH_SCRIPT);
    served.start();
    await served.ended;
    await page.locator('[data-outcome="completed"]').waitFor({ timeout: 120_000 });
    const shown = (await page.evaluate("window.__shown")) as Array<[number, number]>;
    const lags = shown.flatMap(([seq, at]) => {
      const published = served.published.get(seq);
      return published === undefined ? [] : [at - published];
    });
    const tenth = Math.max(1, Math.floor(lags.length / 10));
    const early = percentile(lags.slice(0, tenth), 50);
    const late = percentile(lags.slice(-tenth), 50);
    context.log(
      `  ${lags.length} renders; lag median ${percentile(lags, 50).toFixed(1)} ms, p99 ${percentile(lags, 99).toFixed(1)} ms; first tenth ${early.toFixed(1)}, last ${late.toFixed(1)}`,
    );
    const spec = (name: string, unit: string, note?: string) => ({
      bench: BENCH,
      figure: name,
      unit,
      ...(note !== undefined && { note }),
    });
    return [
      figure(
        spec("follow/lag-median", "ms", "event published to the page showing it, 1,000-iteration loop"),
        [percentile(lags, 50)],
      ),
      figure(spec("follow/lag-p99", "ms"), [percentile(lags, 99)]),
      figure(
        {
          ...spec("follow/lag-growth", "x", "median lag, last tenth of the run over the first"),
          target: atMost(2),
        },
        [late / Math.max(early, 1)],
      ),
    ];
  } finally {
    await page.close();
    await served.close();
  }
}
