import type { EngineCaseResult } from "../cases/engine-case.ts";
import { atMost, type FigureLine, type FigureSpec, figure, fromSummary } from "../lib/figure.ts";
import { ensurePeer, type LangGraphRun, runPeer } from "../lib/langgraph-peer.ts";
import { loopCase, perCodon, requireCompleted } from "../lib/shared-cases.ts";
import { summarize } from "../lib/stats.ts";
import type { Suite, SuiteContext } from "../lib/suite.ts";

const BENCH = "langgraph";

/**
 * 6. Side by side with LangGraph.js: the same loop of 1,000 no-op steps with durable state after every
 * step. LangGraph: SqliteSaver (default durability `async`). Hankweave: the journal plus state.json at
 * every boundary, and the full CLI hooks with git checkpoints. The notes say what each persists per step.
 */
export const langgraphSuite: Suite = {
  name: BENCH,
  title: "Side by side with LangGraph.js (1,000-step durable loop)",
  async run(context) {
    const problem = ensurePeer(context);
    const steps = context.quick ? 100 : 1000;
    const hankweave = await hankweaveRuns(context);
    if (problem !== undefined) {
      context.log(`  LangGraph skipped: ${problem}`);
      return hankweave.figures;
    }
    const repeats = context.quick ? 2 : 5;
    context.log(`  LangGraph: ${repeats} runs each, SqliteSaver and no checkpointer`);
    const sqlite: LangGraphRun[] = [];
    const none: LangGraphRun[] = [];
    for (let i = 0; i < repeats; i++) sqlite.push(await runPeer(context, "sqlite", steps, i));
    for (let i = 0; i < Math.max(2, repeats - 2); i++) none.push(await runPeer(context, "none", steps, i));
    return [...hankweave.figures, ...peerFigures(sqlite, none), ...ratios(hankweave, sqlite)];
  },
};

interface HankweaveSide {
  readonly figures: FigureLine[];
  readonly durable: number[];
  readonly full: number[];
}

async function hankweaveRuns(context: SuiteContext): Promise<HankweaveSide> {
  context.log("  hankweave: loop with journal + state.json, and with the CLI hooks (shared with suite 1)");
  const journal = await loopCase(context, "journal").run();
  const full = await loopCase(context, "full").run();
  requireCompleted([...journal, ...full], "hankweave loop");
  const durable = perCodon(journal, (r) => r.totalMs);
  const withGit = perCodon(full, (r) => r.totalMs);
  const first = journal[0];
  const persisted = first === undefined ? "" : persistedNote(first);
  return {
    durable,
    full: withGit,
    figures: [
      figure({ bench: BENCH, figure: "hankweave/durable-state", unit: "ms/step", note: persisted }, durable),
      figure(
        {
          bench: BENCH,
          figure: "hankweave/with-git-checkpoint",
          unit: "ms/step",
          note: "plus one git checkpoint commit per step (no rigSetup, so no rig-setup checkpoint)",
        },
        withGit,
      ),
    ],
  };
}

function persistedNote(run: EngineCaseResult): string {
  const events = run.events / run.codons;
  const bytes = run.journalBytes / run.codons;
  return `per step: ${events.toFixed(1)} journal events (${Math.round(bytes)} B appended, no fsync); state.json (whole run state and plan, fsync + rename + dir fsync) written ${run.snapshotWrites} times in ${run.codons} steps`;
}

function peerFigures(sqlite: LangGraphRun[], none: LangGraphRun[]): FigureLine[] {
  const p = sqlite[0]?.persisted;
  const steps = sqlite[0]?.steps ?? 1;
  const note =
    p === undefined || p === null
      ? ""
      : `per step: ${(p.checkpointRows / steps).toFixed(2)} checkpoint rows (full state, ${Math.round(p.checkpointBytes / p.checkpointRows)} B) + ${(p.writeRows / steps).toFixed(2)} writes rows; SQLite journal_mode=${p.journalMode}, synchronous=${p.synchronous}`;
  const spec = (name: string, unit: string, extra?: string) => ({
    bench: BENCH,
    figure: name,
    unit,
    ...(extra !== undefined && { note: extra }),
  });
  return [
    figure(
      spec("langgraph/sqlite", "ms/step", note),
      sqlite.map((run) => run.perStepMs),
    ),
    figure(
      spec("langgraph/no-checkpointer", "ms/step", "the graph engine alone"),
      none.map((run) => run.perStepMs),
    ),
    figure(
      spec("langgraph/sqlite/peak-rss", "MB"),
      sqlite.map((run) => run.maxRssMb),
    ),
    figure(
      spec("langgraph/sqlite/cold-start", "ms", "spawn to first node execution"),
      sqlite.map((run) => run.coldStartMs ?? 0),
    ),
  ];
}

function ratios(side: HankweaveSide, sqlite: LangGraphRun[]): FigureLine[] {
  const peer = summarize(sqlite.map((run) => run.perStepMs));
  const ratio = (name: string, ours: number[], target?: FigureSpec["target"]): FigureLine => {
    const mine = summarize(ours);
    return fromSummary(
      {
        bench: BENCH,
        figure: name,
        unit: "x",
        note: "hankweave per step / LangGraph SqliteSaver per step",
        ...(target !== undefined && { target }),
      },
      {
        median: mine.median / peer.median,
        min: mine.min / peer.max,
        max: mine.max / peer.min,
        runs: mine.runs,
      },
    );
  };
  return [
    ratio("ratio/durable-state", side.durable),
    // Issue 32: a durable step, workspace checkpointed by git, at most 0.6x the peer's in the same run.
    ratio("ratio/with-git-checkpoint", side.full, atMost(0.6)),
  ];
}
