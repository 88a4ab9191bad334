import type { CheckpointSizeResult } from "../cases/checkpoint-size.ts";
import type { EngineCaseResult } from "../cases/engine-case.ts";
import { atMost, type FigureLine, figure, fromSummary } from "../lib/figure.ts";
import { summarize } from "../lib/stats.ts";
import type { Suite, SuiteContext } from "../lib/suite.ts";

const BENCH = "checkpoint-size";

/**
 * 2. Checkpoint cost against workspace size: one changed file per codon in workspaces of 100, 10,000 and
 * 50,000 tracked files, through the CLI's hooks (`checkpointedFiles: ["**"]`) and through the
 * checkpointer's incremental commit alone; and the first codon's snapshot of the whole workspace against
 * `git add -A` of the same files in the same run.
 */
export const checkpointSizeSuite: Suite = {
  name: BENCH,
  title: "Checkpoint cost against workspace size (one changed file)",
  async run(context) {
    const sizes = context.quick ? [100, 2000] : [100, 10_000, 50_000];
    const figures: FigureLine[] = [];
    const perCodon = new Map<number, number[]>();
    const commits = new Map<number, number[]>();
    for (const files of sizes) {
      context.log(`  ${files} files`);
      const [result] = await context.runCase<CheckpointSizeResult>({
        name: "checkpoint-size",
        args: { files, codons: context.quick ? 5 : 12, commits: context.quick ? 5 : 15 },
      });
      if (result === undefined) throw new Error("checkpoint-size returned nothing");
      perCodon.set(files, result.perCodonMs);
      commits.set(files, result.commitMs);
      const spec = (name: string, unit = "ms") => ({ bench: BENCH, figure: `files-${files}/${name}`, unit });
      figures.push(
        figure(
          {
            ...spec("per-codon", "ms/codon"),
            note: "the checkpoint of a codon that changed one tracked file, CLI hooks",
          },
          result.perCodonMs,
        ),
        figure(
          { ...spec("commit-one-path"), note: "Checkpointer.commit with changedPaths" },
          result.commitMs,
        ),
        figure(
          {
            ...spec("initial-snapshot"),
            ...(files >= 50_000 && { target: atMost(3000) }),
            note: "first codon: records the whole workspace",
          },
          [result.initialMs],
        ),
        figure({ ...spec("git-add-all"), note: "git add -A of the same workspace, same run" }, [
          result.gitAddMs,
        ]),
        figure(
          {
            ...spec("initial-snapshot-vs-git-add", "x"),
            // The figure is the big workspace's; 100 files take a few milliseconds either
            // way, mostly the processes' own start.
            ...(files >= 10_000 && { target: atMost(0.5) }),
            note: "initial snapshot / git add -A",
          },
          [result.initialMs / result.gitAddMs],
        ),
        figure(spec("git-spawns", "spawns/codon"), [result.gitSpawnsPerCodon]),
      );
    }
    figures.push(...(await storeFootprint(context)));
    const small = sizes[0] ?? 100;
    const large = sizes[sizes.length - 1] ?? small;
    figures.push(
      ratio(`ratio-${large}-vs-${small}/per-codon`, perCodon.get(large), perCodon.get(small), true),
      ratio(`ratio-${large}-vs-${small}/commit-one-path`, commits.get(large), commits.get(small), false),
    );
    return figures;
  },
};

/** Ratio of the medians; the range pairs the extremes (slowest large over fastest small, and back). */
function ratio(
  name: string,
  large: number[] | undefined,
  small: number[] | undefined,
  withTarget: boolean,
): FigureLine {
  const a = summarize(large ?? [0]);
  const b = summarize(small ?? [1]);
  return fromSummary(
    { bench: BENCH, figure: name, unit: "x", ...(withTarget && { target: atMost(1.5) }) },
    { median: a.median / b.median, min: a.min / b.max, max: a.max / b.min, runs: Math.min(a.runs, b.runs) },
  );
}

/**
 * The checkpoint store a long loop leaves: 1,000 codons (200 with `--quick`) that each append a line to
 * one tracked file, through the CLI's hooks, then the checkpointer's close (its last packing). Bytes and
 * files of the git store (bytes per 1,000 checkpoints, files in all); targets ≤ 1 MB and ≤ 50 files.
 */
async function storeFootprint(context: SuiteContext): Promise<FigureLine[]> {
  const codons = context.quick ? 200 : 1000;
  context.log(`  store footprint: ${codons} checkpoints of an append loop`);
  const [run] = await context.runCase<EngineCaseResult>({
    name: "engine",
    args: {
      fixture: {
        shape: { kind: "loop", iterations: codons },
        prompt: "@append log.txt one more line",
        checkpointedFiles: ["**"],
      },
      mode: "full",
    },
  });
  if (run === undefined || run.status !== "completed") throw new Error(`store footprint: ${run?.status}`);
  const per1000 = 1000 / run.codons;
  const spec = (name: string, unit: string) => ({ bench: BENCH, figure: `append-loop/${name}`, unit });
  return [
    figure(
      { ...spec("store-bytes", "MB/1000 checkpoints"), target: atMost(1), note: "after the run's close" },
      [(run.store.bytes / 1e6) * per1000],
    ),
    figure(
      {
        ...spec("store-files", "files"),
        target: atMost(50),
        note: `in the store after ${run.codons} checkpoints`,
      },
      [run.store.files],
    ),
    figure({ ...spec("per-codon", "ms/codon"), note: "whole codon, CLI hooks with git" }, [
      run.totalMs / run.codons,
    ]),
    figure({ ...spec("close", "ms"), note: "Checkpointer.close: the last packing" }, [run.closeMs]),
  ];
}
