/**
 * `npm run bench [-- --only <suite,...>] [--quick] [--out <file>]`: runs hankweave's benchmarks
 * (bench/README.md) and prints one JSON line per figure, then a table. Results go to
 * bench/results/latest.jsonl (the machine first); `bench/compare.ts` checks them against the baseline.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { FigureLine } from "./lib/figure.ts";
import { machineLine } from "./lib/machine.ts";
import { type CaseRunner, createCaseRunner } from "./lib/run-case.ts";
import type { Suite, SuiteContext } from "./lib/suite.ts";
import { markdownTable } from "./lib/table.ts";
import { agentShareSuite } from "./suites/agent-share.ts";
import { checkpointSizeSuite } from "./suites/checkpoint-size.ts";
import { cliToolsSuite } from "./suites/cli-tools.ts";
import { codonOverhead } from "./suites/codon-overhead.ts";
import { coldStart } from "./suites/cold-start.ts";
import { journalSuite } from "./suites/journal.ts";
import { langgraphSuite } from "./suites/langgraph.ts";
import { longLoop } from "./suites/long-loop.ts";
import { loopApiSuite } from "./suites/loop-api.ts";
import { loopsSuite } from "./suites/loops.ts";
import { loopsDistributedSuite } from "./suites/loops-distributed.ts";
import { loopsScaleSuite } from "./suites/loops-scale.ts";
import { sentinelsSuite } from "./suites/sentinels.ts";
import { serverSuite } from "./suites/server.ts";
import { tracingSuite } from "./suites/tracing.ts";
import { webSuite } from "./suites/web.ts";

/** In issue order: `--only 4` and `--only journal` pick the same suite. */
const SUITES: readonly Suite[] = [
  codonOverhead,
  checkpointSizeSuite,
  longLoop,
  journalSuite,
  coldStart,
  langgraphSuite,
  loopApiSuite,
  loopsSuite,
  serverSuite,
  sentinelsSuite,
  cliToolsSuite,
  webSuite,
  loopsDistributedSuite,
  tracingSuite,
  agentShareSuite,
  loopsScaleSuite,
];

const repoRoot = resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    only: { type: "string" },
    quick: { type: "boolean", default: false },
    out: { type: "string" },
    list: { type: "boolean", default: false },
  },
});

if (values.list) {
  for (const [i, suite] of SUITES.entries())
    process.stdout.write(`${i + 1}. ${suite.name}: ${suite.title}\n`);
  process.exit(0);
}

const selected = select(values.only);
const quick = values.quick === true;
const out = resolve(values.out ?? join(repoRoot, "bench", "results", "latest.jsonl"));
const scratch = mkdtempSync(join(tmpdir(), "hankweave-bench-run-"));
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};
const context: SuiteContext = {
  quick,
  repoRoot,
  runCase: sharedRuns(createCaseRunner(repoRoot, process.env)),
  env: process.env,
  scratch,
  log,
};

const machine = machineLine(process.env, quick);
process.stdout.write(`${JSON.stringify(machine)}\n`);
const figures: FigureLine[] = [];
let failed = 0;
const started = Date.now();
try {
  for (const suite of selected) {
    const suiteStart = Date.now();
    log(`${SUITES.indexOf(suite) + 1}. ${suite.title}${quick ? " [quick]" : ""}`);
    try {
      const lines = (await suite.run(context)).map((line) =>
        quick ? { ...line, quick: true as const } : line,
      );
      for (const line of lines) process.stdout.write(`${JSON.stringify(line)}\n`);
      figures.push(...lines);
    } catch (error) {
      failed++;
      log(`  ✗ ${suite.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    log(`  (${((Date.now() - suiteStart) / 1000).toFixed(0)} s)`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
process.stdout.write(`\n${markdownTable(figures)}\n\n`);
process.stdout.write(
  `${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGb} GB, Node ${machine.node}, git ${machine.git}; ` +
    `load average at start ${machine.loadAverage.join(" ")}; ${minutes} min\n`,
);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, [machine, ...figures].map((line) => `${JSON.stringify(line)}\n`).join(""));
log(`results: ${out}`);
process.exitCode = failed > 0 ? 1 : 0;

function select(only: string | undefined): readonly Suite[] {
  if (only === undefined) return SUITES;
  const names = only.split(",").map((name) => name.trim());
  return names.map((name) => {
    const suite = SUITES[Number(name) - 1] ?? SUITES.find((s) => s.name === name || s.name.startsWith(name));
    if (suite === undefined) {
      process.stderr.write(`unknown suite "${name}"; known: ${SUITES.map((s) => s.name).join(", ")}\n`);
      process.exit(2);
    }
    return suite;
  });
}

/** Identical case requests (suites 1 and 6 run the same loop) share one run. */
function sharedRuns(runner: CaseRunner): CaseRunner {
  const runs = new Map<string, Promise<unknown[]>>();
  return <R>(request: Parameters<CaseRunner>[0]): Promise<R[]> => {
    const key = JSON.stringify(request);
    const existing = runs.get(key);
    if (existing !== undefined) return existing as Promise<R[]>;
    const run = runner<R>(request);
    runs.set(key, run);
    return run;
  };
}
