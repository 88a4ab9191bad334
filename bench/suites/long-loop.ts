import type { EngineCaseResult, EngineMode } from "../cases/engine-case.ts";
import { atMost, type FigureLine, figure } from "../lib/figure.ts";
import { mean } from "../lib/stats.ts";
import type { Suite, SuiteContext } from "../lib/suite.ts";

const BENCH = "long-loop";

/**
 * 3. Long loops: a 10,000-iteration loop of one no-op codon with the journal and the state snapshot
 * written at every boundary (the durable state of a headless run, without git), then the engine alone.
 * Time per iteration over the first and the last thousand, and peak RSS.
 */
export const longLoop: Suite = {
  name: BENCH,
  title: "Long loops (10,000 iterations)",
  async run(context) {
    const figures: FigureLine[] = [];
    for (const mode of ["journal", "memory"] as const) figures.push(...(await oneMode(context, mode)));
    return figures;
  },
};

async function oneMode(context: SuiteContext, mode: EngineMode): Promise<FigureLine[]> {
  const iterations = context.quick ? 2000 : 10_000;
  const window = context.quick ? 500 : 1000;
  const budgetMs = context.quick ? 30_000 : 100_000;
  context.log(`  ${iterations} iterations, ${mode === "journal" ? "CLI hooks without git" : "engine only"}`);
  const runs = await context.runCase<EngineCaseResult>({
    name: "engine",
    args: { fixture: { shape: { kind: "loop", iterations } }, mode, rssEvery: window, deadlineMs: budgetMs },
  });
  const name = mode === "journal" ? "durable-state" : "engine-only";
  const cut = runs.map((run) => (window > run.codons / 2 ? null : run)).filter((run) => run !== null);
  const stopped = runs.find((run) => run.status !== "completed");
  const note =
    stopped === undefined
      ? undefined
      : `stopped by the ${budgetMs / 1000} s time box after ${stopped.codons} of ${iterations} iterations: the last ${window} are the last ones reached`;
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
