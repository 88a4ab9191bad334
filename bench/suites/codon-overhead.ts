import type { AgentFloorResult } from "../cases/agent-floor.ts";
import type { EngineCaseResult, EngineMode } from "../cases/engine-case.ts";
import type { EventFloorResult } from "../cases/event-floor.ts";
import { atMost, type FigureLine, figure } from "../lib/figure.ts";
import { loopCase, perCodon, requireCompleted } from "../lib/shared-cases.ts";
import type { Suite, SuiteContext } from "../lib/suite.ts";

const BENCH = "codon-overhead";

/**
 * 1. Codon boundary overhead: wall time per no-op codon in a hank of 200 codons and in a loop of 1,000
 * iterations, in three configurations (engine only; journal and snapshot; the full CLI hooks with git
 * checkpoints), the full one split into engine, journal, state snapshot and checkpoint. The floor is a
 * bare loop over the scripted agent.
 */
export const codonOverhead: Suite = {
  name: BENCH,
  title: "Codon boundary overhead (no-op codons)",
  async run(context) {
    const figures: FigureLine[] = [await floor(context)];
    const codons = context.quick ? 50 : 200;
    figures.push(
      ...(await shape(context, `hank-${codons}`, (mode) =>
        context.runCase<EngineCaseResult>({
          name: "engine",
          args: { fixture: { shape: { kind: "codons", count: codons } }, mode },
          repeat: context.quick ? 2 : mode === "full" ? 3 : 5,
        }),
      )),
    );
    const iterations = context.quick ? 100 : 1000;
    figures.push(...(await shape(context, `loop-${iterations}`, (mode) => loopCase(context, mode).run())));
    figures.push(await eventFloorFigure(context, iterations));
    return figures;
  },
};

async function floor(context: SuiteContext): Promise<FigureLine> {
  const sessions = context.quick ? 200 : 1000;
  context.log(`  agent floor: ${sessions} scripted sessions`);
  const runs = await context.runCase<AgentFloorResult>({
    name: "agent-floor",
    args: { sessions },
    repeat: context.quick ? 3 : 5,
  });
  return figure(
    {
      bench: BENCH,
      figure: "agent-floor",
      unit: "ms/codon",
      note: "bare loop: scripted agent start, drain events, await outcome",
    },
    runs.map((run) => run.totalMs / run.sessions),
  );
}

/**
 * The floor under `engine-only` (issue 28): the scripted agent plus the ten events a no-op loop codon
 * journals (the reference's stream: five `state.transition`, `codon.started`, `assistant.action`,
 * `token.usage`, `codon.completed`, the loop report), sent through the run's sink with nothing deciding
 * around them. Same codon count and repeats as the loop's `engine-only`, so the two compare directly.
 */
async function eventFloorFigure(context: SuiteContext, codons: number): Promise<FigureLine> {
  context.log(`  event floor: ${codons} codons' events through the run sink`);
  const runs = await context.runCase<EventFloorResult>({
    name: "event-floor",
    args: { codons },
    repeat: loopCase(context, "memory").repeat,
  });
  return figure(
    {
      bench: BENCH,
      figure: `loop-${codons}/event-floor`,
      unit: "ms/codon",
      note: "agent + a no-op codon's journaled events through the run sink, no engine",
    },
    runs.map((run) => run.totalMs / run.codons),
  );
}

async function shape(
  context: SuiteContext,
  name: string,
  run: (mode: EngineMode) => Promise<EngineCaseResult[]>,
): Promise<FigureLine[]> {
  const spec = (figureName: string, unit = "ms/codon") => ({
    bench: BENCH,
    figure: `${name}/${figureName}`,
    unit,
  });
  context.log(`  ${name}: engine only`);
  const memory = await run("memory");
  requireCompleted(memory, name);
  context.log(`  ${name}: CLI hooks without git (journal + state.json)`);
  const journal = await run("journal");
  requireCompleted(journal, name);
  context.log(`  ${name}: CLI hooks without git, durable journal (fsync per codon boundary)`);
  const durable = await run("durable");
  requireCompleted(durable, name);
  context.log(`  ${name}: full CLI hooks (git checkpoints)`);
  const full = await run("full");
  requireCompleted(full, name);
  const split = (run: EngineCaseResult) => run.split;
  return [
    figure(
      { ...spec("engine-only"), note: "events enveloped and reduced, nothing written" },
      perCodon(memory, (r) => r.totalMs),
    ),
    figure(
      {
        ...spec("without-checkpoint"),
        target: atMost(0.15),
        note: "the CLI's workspace hooks with a checkpointer that records nothing: journal + state.json",
      },
      perCodon(journal, (r) => r.totalMs),
    ),
    figure(
      {
        ...spec("durable-journal"),
        note: "without-checkpoint with --durable: fsync at every codon boundary",
      },
      perCodon(durable, (r) => r.totalMs),
    ),
    figure(
      {
        ...spec("with-checkpoint"),
        target: atMost(2),
        note: "the CLI's workspace hooks: journal, state.json, git",
      },
      perCodon(full, (r) => r.totalMs),
    ),
    figure(
      { ...spec("split/engine+agent"), note: "with-checkpoint run minus journal, state and checkpoint" },
      perCodon(full, (r) => r.totalMs - split(r).journal - split(r).state - split(r).checkpoint),
    ),
    figure(
      spec("split/journal"),
      perCodon(full, (r) => split(r).journal),
    ),
    figure(
      { ...spec("split/state"), note: "the persist hook (state.json when due)" },
      perCodon(full, (r) => split(r).state),
    ),
    figure(
      spec("state-json-writes", "writes/run"),
      full.map((r) => r.snapshotWrites),
    ),
    figure(
      { ...spec("split/checkpoint"), note: "the workspace hooks: startRun (once) and the completed commit" },
      perCodon(full, (r) => split(r).checkpoint),
    ),
    figure(
      { ...spec("git-spawns", "spawns/codon"), note: "after the run start" },
      perCodon(full, (r) => r.gitSpawns - r.startRunGitSpawns),
    ),
    figure(
      { ...spec("run-start/checkpoint-init", "ms"), note: "startRun hook: checkpoint store and run branch" },
      full.map((r) => r.startRunMs),
    ),
    figure(
      spec("run-start/git-spawns", "spawns"),
      full.map((r) => r.startRunGitSpawns),
    ),
  ];
}
