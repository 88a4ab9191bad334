import type { TracedRunResult } from "../cases/traced-run.ts";
import { atMost, type FigureLine, figure } from "../lib/figure.ts";
import { summarize } from "../lib/stats.ts";
import type { Suite, SuiteContext } from "../lib/suite.ts";

const BENCH = "tracing";

/**
 * 14. What OpenTelemetry tracing costs a codon: a real run of no-op codons (one model turn each) with
 * tracing off and on (OTLP/HTTP protobuf to a receiver in another process, which decodes what it
 * received after the run, as a backend elsewhere would cost this machine nothing), once with the
 * runtime alone (no checkpoints: the absolute cost of the spans) and once as the CLI runs (git
 * checkpoints), where it should stay within 10 %. Off loads nothing of OpenTelemetry. Runs alternate
 * off/on so machine drift hits both. The git case runs 400 codons (about 0.3 s): over the 100 it ran
 * when a checkpoint cost 2 ms, a 70 ms window measured mostly the tracing thread's warm-up.
 */
export const tracingSuite: Suite = {
  name: BENCH,
  title: "Per-codon cost with tracing off and on",
  async run(context) {
    return [...(await pair(context, "none")), ...(await pair(context, "git"))];
  },
};

/** Alternating off/on runs of one configuration, and their figures. */
async function pair(context: SuiteContext, checkpoints: "none" | "git"): Promise<FigureLine[]> {
  const codons = context.quick ? 50 : checkpoints === "git" ? 400 : 200;
  const rounds = context.quick ? 2 : 5;
  const off: TracedRunResult[] = [];
  const on: TracedRunResult[] = [];
  const run = (tracing: "off" | "on", round: number) =>
    context.runCase<TracedRunResult>({ name: "traced-run", args: { codons, tracing, checkpoints, round } });
  for (let round = 0; round < rounds; round++) {
    context.log(
      `  ${checkpoints === "git" ? "git checkpoints" : "no checkpoints"}, round ${round + 1}/${rounds}`,
    );
    off.push(...(await run("off", round)));
    on.push(...(await run("on", round)));
  }
  for (const result of [...off, ...on]) {
    if (result.outcome !== "completed") throw new Error(`tracing bench: a run ended ${result.outcome}`);
  }
  const perCodon = (runs: readonly TracedRunResult[]) => runs.map((r) => r.codonsMs / r.codons);
  const offMedian = summarize(perCodon(off)).median;
  const name = (figureName: string) => `${checkpoints === "git" ? "git" : "runtime"}/${figureName}`;
  return [
    figure(
      { bench: BENCH, figure: name("off"), unit: "ms/codon", note: "no OTEL_* variable: nothing loaded" },
      perCodon(off),
    ),
    figure(
      {
        bench: BENCH,
        figure: name("on"),
        unit: "ms/codon",
        note: "OTLP protobuf to a receiver process (decoded after the run)",
      },
      perCodon(on),
    ),
    figure(
      {
        bench: BENCH,
        figure: name("on-vs-off"),
        unit: "ratio",
        ...(checkpoints === "git" && { target: atMost(1.1) }),
        note: "on / off median",
      },
      perCodon(on).map((value) => value / offMedian),
    ),
    figure(
      { bench: BENCH, figure: name("on/close"), unit: "ms", note: "the last export, at the run's end" },
      on.map((r) => r.closeMs),
    ),
    figure(
      { bench: BENCH, figure: name("on/spans"), unit: "spans/codon" },
      on.map((r) => r.spans / r.codons),
    ),
  ];
}
