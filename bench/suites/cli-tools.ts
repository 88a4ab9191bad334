import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createMemoryCheckpointer } from "../../src/checkpoint/index.ts";
import type { CliIo } from "../../src/cli/cli-io.ts";
import { dietJournal } from "../../src/cli/journal-care/journal-diet.ts";
import { runCli } from "../../src/cli/run-cli.ts";
import { runExecution } from "../../src/runner/index.ts";
import { executionLayout } from "../../src/workspace/execution-layout.ts";
import { type FigureLine, figure } from "../lib/figure.ts";
import type { Suite, SuiteContext } from "../lib/suite.ts";

const BENCH = "cli-tools";

/**
 * The CLI's tools over recorded executions: `--replay` speed on a recorded run of 1,000 codons (a
 * loop whose codon writes a file, real git checkpoints in both the recording and the replay), and the
 * `--diet-journal` size reduction on the journal of a 10,000-iteration run (each iteration writes a
 * 2 KB file through a tool and says a short sentence; the diet moves bodies of 1 KiB or more).
 */
export const cliToolsSuite: Suite = {
  name: BENCH,
  title: "Replay speed and journal diet",
  async run(context) {
    return [...(await replaySpeed(context)), ...(await dietReduction(context))];
  },
};

function loopHank(dir: string, iterations: number, prompt: string): string {
  mkdirSync(dir, { recursive: true });
  const codon = {
    id: "step",
    name: "Step",
    model: "scripted",
    continuationMode: "fresh",
    promptText: prompt,
  };
  const loop = {
    type: "loop",
    id: "work",
    name: "Work",
    terminateOn: { type: "iterationLimit", limit: iterations },
    codons: [{ ...codon, checkpointedFiles: ["*.md"] }],
  };
  writeFileSync(join(dir, "hank.json"), JSON.stringify({ hank: [loop] }));
  return dir;
}

function quietIo(cwd: string, env: Record<string, string>): CliIo {
  const sink = { write: () => undefined, isTTY: false, columns: undefined };
  return {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdout: sink,
    stderr: sink,
    runtime: {
      version: "bench",
      platform: process.platform,
      arch: process.arch,
      nodeVersion: process.version,
    },
  };
}

async function replaySpeed(context: SuiteContext): Promise<FigureLine[]> {
  const codons = context.quick ? 200 : 1000;
  const root = join(context.scratch, "cli-tools-replay");
  const hank = loopHank(
    join(root, "hank"),
    codons,
    "@append log.md line\\n\n@usage input=100 output=10 cost=0.0001\n@say ok",
  );
  const recording = join(root, "recording");
  const base = join(root, "executions");
  context.log(`  recording ${codons} codons`);
  const recordStart = performance.now();
  if ((await runCli([hank, "-e", recording, "--headless"], quietIo(root, {}))) !== 0)
    throw new Error("recording failed");
  const recordSeconds = (performance.now() - recordStart) / 1000;
  context.log(`  replaying ${codons} codons`);
  const start = performance.now();
  const env = { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: base };
  if ((await runCli(["--replay", recording, "--headless"], quietIo(root, env))) !== 0)
    throw new Error("replay failed");
  const seconds = (performance.now() - start) / 1000;
  if (readdirSync(base).length !== 1) throw new Error("the replay wrote no execution");
  const spec = (name: string, unit: string, note: string) => ({
    bench: BENCH,
    figure: name,
    unit,
    better: "higher" as const,
    note,
  });
  return [
    figure(
      spec(`replay-${codons}/codons-per-second`, "codons/s", "whole --replay run, git checkpoints included"),
      [codons / seconds],
    ),
    figure(
      spec(`record-${codons}/codons-per-second`, "codons/s", "the scripted recording run, for comparison"),
      [codons / recordSeconds],
    ),
  ];
}

async function dietReduction(context: SuiteContext): Promise<FigureLine[]> {
  const iterations = context.quick ? 2000 : 10_000;
  const root = join(context.scratch, "cli-tools-diet");
  const body = "A line of generated notes, about as long as a line of prose in a report. ".repeat(28);
  const hank = loopHank(
    join(root, "hank"),
    iterations,
    `@write notes.md ${body}\n@usage input=900 output=400 cost=0.002\n@say Wrote the notes.`,
  );
  const execution = join(root, "exec");
  context.log(`  ${iterations} iterations for the diet`);
  const result = await runExecution({
    hank,
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    execution,
    headless: true,
    checkpointer: (layout, clock) => createMemoryCheckpointer({ workTree: layout.agentRoot, clock }),
  });
  if (result.kind !== "ran" || result.exitCode !== 0)
    throw new Error(`the diet's run failed: ${result.kind}`);
  const layout = executionLayout(execution);
  const before = statSync(layout.eventsPath).size;
  const start = performance.now();
  const outcome = dietJournal(execution);
  const dietMs = performance.now() - start;
  if (outcome.exitCode !== 0) throw new Error(outcome.stderr);
  const after = statSync(layout.eventsPath).size;
  const spec = (name: string, unit: string, note?: string) => ({
    bench: BENCH,
    figure: `diet-${iterations}/${name}`,
    unit,
    ...(note !== undefined && { note }),
  });
  return [
    figure(spec("journal-before", "bytes"), [before]),
    figure(spec("journal-after", "bytes"), [after]),
    figure({ ...spec("reduction", "%", "1 - after/before of events.jsonl"), better: "higher" }, [
      (1 - after / before) * 100,
    ]),
    figure(spec("diet-time", "ms", "the whole --diet-journal, verification included"), [dietMs]),
  ];
}
