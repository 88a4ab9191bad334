import { join } from "node:path";
import { runCliLongLoop } from "../cases/cli-long-loop.ts";
import type { EngineCaseResult, EngineMode } from "../cases/engine-case.ts";
import { builtBin } from "../lib/built-bin.ts";
import { childEnv } from "../lib/child-env.ts";
import { atMost, type FigureLine, figure } from "../lib/figure.ts";
import { mean } from "../lib/stats.ts";
import type { Suite, SuiteContext } from "../lib/suite.ts";

const BENCH = "long-loop";

/**
 * 3. Long loops: a 10,000-iteration loop of one no-op codon with the journal and the state snapshot
 * written at every boundary (the durable state of a headless run, without git), the same with a loop
 * budget and with a hank budget (resolved at every codon), then the engine alone, then the whole CLI as
 * a user runs it (the built bin, git checkpoints included). Time per iteration over the first and the
 * last thousand, and peak RSS.
 */
export const longLoop: Suite = {
  name: BENCH,
  title: "Long loops (10,000 iterations)",
  async run(context) {
    const figures: FigureLine[] = [];
    figures.push(...(await oneMode(context, "journal")));
    for (const budgets of ["loop", "hank"] as const)
      figures.push(...(await oneMode(context, "journal", budgets)));
    figures.push(...(await oneMode(context, "memory")));
    figures.push(...(await cliMode(context)));
    return figures;
  },
};

const sizes = (context: SuiteContext) => ({
  iterations: context.quick ? 2000 : 10_000,
  window: context.quick ? 500 : 1000,
});

async function oneMode(
  context: SuiteContext,
  mode: EngineMode,
  budgets?: "loop" | "hank",
): Promise<FigureLine[]> {
  const { iterations, window } = sizes(context);
  const budgetMs = context.quick ? 30_000 : 100_000;
  const what = mode === "journal" ? "CLI hooks without git" : "engine only";
  context.log(`  ${iterations} iterations, ${what}${budgets === undefined ? "" : `, ${budgets} budget`}`);
  const fixture = { shape: { kind: "loop", iterations }, ...(budgets !== undefined && { budgets }) } as const;
  const runs = await context.runCase<EngineCaseResult>({
    name: "engine",
    args: { fixture, mode, rssEvery: window, deadlineMs: budgetMs },
  });
  const base = mode === "journal" ? "durable-state" : "engine-only";
  const name = budgets === undefined ? base : `${budgets}-budget`;
  const stopped = runs.find((run) => run.status !== "completed");
  const note = stopped === undefined ? undefined : timeBoxNote(budgetMs, stopped.codons, iterations, window);
  return loopFigures(name, note, runs, window);
}

/** The built bin, spawned once: what a user's 10,000-iteration headless run costs, git included. */
async function cliMode(context: SuiteContext): Promise<FigureLine[]> {
  const { iterations, window } = sizes(context);
  const budgetMs = context.quick ? 60_000 : 200_000;
  const bin = builtBin(context);
  context.log(`  ${iterations} iterations, the built CLI with git checkpoints`);
  const run = await runCliLongLoop({
    bin,
    dir: join(context.scratch, "long-loop-cli"),
    iterations,
    env: childEnv(context.env),
    deadlineMs: budgetMs,
  });
  if (run.exitCode !== 0 && !run.timedOut) throw new Error(`the CLI long loop exited ${run.exitCode}`);
  const reached = run.boundaries.length + 1;
  const note = run.timedOut
    ? timeBoxNote(budgetMs, reached, iterations, window)
    : "the built bin, git checkpoints";
  if (run.maxRssMb === null) throw new Error("the CLI long loop did not report its peak RSS");
  const asCase = { codons: reached, boundaries: run.boundaries, maxRssMb: run.maxRssMb };
  return loopFigures("cli-with-git", note, [asCase], window);
}

function timeBoxNote(budgetMs: number, reached: number, iterations: number, window: number): string {
  return `stopped by the ${budgetMs / 1000} s time box after ${reached} of ${iterations} iterations: the last ${window} are the last ones reached`;
}

type LoopRun = Pick<EngineCaseResult, "codons" | "boundaries" | "maxRssMb">;

function loopFigures(
  name: string,
  note: string | undefined,
  runs: readonly LoopRun[],
  window: number,
): FigureLine[] {
  const cut = runs.filter((run) => window <= run.codons / 2);
  const spec = (figureName: string, unit: string) => ({
    bench: BENCH,
    figure: `${name}/${figureName}`,
    unit,
    ...(note !== undefined && { note }),
  });
  const first = cut.map((run) => mean(run.boundaries.slice(0, window)));
  const last = cut.map((run) => mean(run.boundaries.slice(-window)));
  return [
    figure(spec(`first-${window}`, "ms/iteration"), first),
    figure(spec(`last-${window}`, "ms/iteration"), last),
    figure(
      { ...spec("last-vs-first", "x"), target: atMost(1.2) },
      cut.map((_, i) => (last[i] ?? 0) / (first[i] || 1)),
    ),
    figure(
      { ...spec("peak-rss", "MB"), target: atMost(200) },
      runs.map((run) => run.maxRssMb),
    ),
    figure(
      { ...spec("iterations-run", "iterations"), better: "higher" },
      runs.map((run) => run.codons),
    ),
  ];
}
