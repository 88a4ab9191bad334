/**
 * 7. `loop-api`: the programmatic `loop()` (src/workflows/), its own cost per step over the bare
 * harness call, non-durable and durable, side by side with LangGraph.js running the same two-node
 * cycle. Each case runs in a fresh process (`loop-api-worker.ts`).
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { EngineMode } from "../cases/engine-case.ts";
import { bundledEntry } from "../lib/bundled-entry.ts";
import { childEnv } from "../lib/child-env.ts";
import { type FigureLine, figure } from "../lib/figure.ts";
import { ensurePeer, peerDir } from "../lib/langgraph-peer.ts";
import { loopCase, perCodon, requireCompleted } from "../lib/shared-cases.ts";
import type { Suite, SuiteContext } from "../lib/suite.ts";
import type { CaseArgs, CaseResult } from "./loop-api-worker.ts";

const BENCH = "loop-api";
export const loopApiSuite: Suite = {
  name: BENCH,
  title: "loop(): overhead per step over the harness call, and LangGraph.js on the same cycle",
  async run(context) {
    const runs = context.quick ? 2 : 3;
    const transient = await repeatCase(context, { steps: context.quick ? 200 : 1000, durable: false }, runs);
    const durable = await repeatCase(context, { steps: context.quick ? 40 : 200, durable: true }, runs);
    const figures = [
      ...loopFigures("non-durable", transient, 0.3),
      ...(await engineReference(context, "memory", "non-durable")),
      ...loopFigures("durable", durable, 1),
      ...(await engineReference(context, "full", "durable")),
    ];
    const problem = ensurePeer(context);
    if (problem !== undefined) {
      context.log(`  LangGraph skipped: ${problem}`);
      return figures;
    }
    const steps = context.quick ? 200 : 1000;
    const repeats = context.quick ? 2 : 5;
    context.log(`  LangGraph two-node cycle: ${repeats} runs each, no checkpointer and SqliteSaver`);
    const none: PeerRun[] = [];
    const sqlite: PeerRun[] = [];
    for (let i = 0; i < repeats; i++) none.push(await runPeerCycle(context, "none", steps, i));
    for (let i = 0; i < repeats; i++) sqlite.push(await runPeerCycle(context, "sqlite", steps, i));
    return [
      ...figures,
      ...peerFigures("no-checkpointer", none, steps),
      ...peerFigures("sqlite", sqlite, steps),
    ];
  },
};

function peerFigures(kind: string, runs: readonly PeerRun[], steps: number): FigureLine[] {
  const what = kind === "sqlite" ? "SqliteSaver, durability async" : "no checkpointer";
  const note = `two no-op nodes in a cycle, ${steps} steps, ${what}`;
  return [
    figure(
      { bench: BENCH, figure: `langgraph/${kind}`, unit: "ms/step", note },
      runs.map((r) => r.perStepMs),
    ),
    figure(
      {
        bench: BENCH,
        figure: `langgraph/${kind}/cpu`,
        unit: "ms/step",
        note: `${note}; CPU time of the process`,
      },
      runs.map((r) => r.cpuPerStepMs),
    ),
  ];
}

async function repeatCase(context: SuiteContext, args: CaseArgs, runs: number): Promise<CaseResult[]> {
  const label = args.durable ? "durable (journal, state.json, git checkpoints)" : "non-durable (in memory)";
  context.log(`  loop(): ${label}, ${args.steps} steps, ${runs} runs in fresh processes`);
  const results: CaseResult[] = [];
  for (let i = 0; i < runs; i++) results.push(await spawnCase(context, args));
  for (const result of results) {
    if (!result.converged)
      throw new Error(`loop() did not run all its iterations: ${JSON.stringify(result)}`);
  }
  return results;
}

function loopFigures(kind: string, results: readonly CaseResult[], target: number): FigureLine[] {
  const steps = results[0]?.steps ?? 0;
  const spec = (name: string, unit: string, note?: string) => ({
    bench: BENCH,
    figure: `${kind}/${name}`,
    unit,
    ...(note !== undefined && { note }),
  });
  return [
    figure(
      spec("agent-floor", "ms/step", "bare scripted session on the step prompt"),
      results.map((r) => r.floorMs),
    ),
    figure(
      spec("per-step", "ms/step", `marginal, over a ${steps}-step loop of two agents`),
      results.map((r) => r.perStepMs),
    ),
    figure(
      { ...spec("overhead", "ms/step", "per-step minus agent-floor"), target: { op: "<=", value: target } },
      results.map((r) => r.perStepMs - r.floorMs),
    ),
    figure(
      spec("per-step-warm", "ms/step", `per-step again, after ${4 * steps} more steps in the same process`),
      results.map((r) => r.warmPerStepMs),
    ),
    figure(
      spec("overhead-warm", "ms/step", "per-step-warm minus agent-floor"),
      results.map((r) => r.warmPerStepMs - r.floorMs),
    ),
    figure(
      spec("setup", "ms", "fixed cost of one loop() call"),
      results.map((r) => r.setupMs),
    ),
    figure(
      spec(
        "overhead-cpu",
        "ms/step",
        "CPU time (process + waited children: git): per-step minus agent-floor",
      ),
      results.map((r) => r.perStepCpuMs - r.floorCpuMs),
    ),
  ];
}

/**
 * The engine alone over a loop of one no-op codon (suite 1's runs, shared when both suites run): what a
 * step costs below the API in the same conditions, so a loaded machine does not hide where time goes.
 */
async function engineReference(context: SuiteContext, mode: EngineMode, kind: string): Promise<FigureLine[]> {
  const runs = await loopCase(context, mode).run();
  requireCompleted(runs, `engine loop (${mode})`);
  const note =
    mode === "memory"
      ? "runHank over an in-memory store, promptText codons, no hooks (suite 1 engine-only)"
      : "runHank with the CLI's hooks: journal, state.json, git checkpoint per codon (suite 1 with-checkpoint)";
  return [
    figure(
      { bench: BENCH, figure: `${kind}/engine-reference`, unit: "ms/codon", note },
      perCodon(runs, (run) => run.totalMs),
    ),
  ];
}

function spawnCase(context: SuiteContext, args: CaseArgs): Promise<CaseResult> {
  const worker = bundledEntry(
    context.repoRoot,
    fileURLToPath(new URL("./loop-api-worker.ts", import.meta.url)),
  );
  return runNode(context, [worker, JSON.stringify(args)], context.repoRoot).then(
    (out) => JSON.parse(out) as CaseResult,
  );
}

/** The peer's two-node cycle, run by `node -e` in the peer's folder so its modules resolve. */
const PEER_CYCLE = `
const [mode, stepsArg, dbPath] = process.argv.slice(1);
const steps = Number(stepsArg);
const { Annotation, END, START, StateGraph } = await import("@langchain/langgraph");
const saver = mode === "sqlite"
  ? (await import("@langchain/langgraph-checkpoint-sqlite")).SqliteSaver.fromConnString(dbPath)
  : undefined;
const State = Annotation.Root({ step: Annotation(), text: Annotation() });
const coder = (state) => ({ step: state.step + 1, text: state.text });
const reviewer = (state) => ({ step: state.step + 1, text: state.text });
const graph = new StateGraph(State)
  .addNode("coder", coder)
  .addNode("reviewer", reviewer)
  .addEdge(START, "coder")
  .addEdge("coder", "reviewer")
  .addConditionalEdges("reviewer", (state) => (state.step < steps ? "coder" : END), ["coder", END])
  .compile(saver === undefined ? {} : { checkpointer: saver });
const start = performance.now();
const cpuStart = process.cpuUsage();
const result = await graph.invoke({ step: 0, text: "ok" }, {
  recursionLimit: steps + 10, durability: "async", configurable: { thread_id: "bench" },
});
const perStepMs = (performance.now() - start) / steps;
const cpu = process.cpuUsage(cpuStart);
const cpuPerStepMs = (cpu.user + cpu.system) / 1000 / steps;
if (result.step !== steps) throw new Error("step " + result.step + ", expected " + steps);
process.stdout.write(JSON.stringify({ perStepMs, cpuPerStepMs }) + "\\n");
`;

interface PeerRun {
  readonly perStepMs: number;
  readonly cpuPerStepMs: number;
}

async function runPeerCycle(
  context: SuiteContext,
  mode: "none" | "sqlite",
  steps: number,
  index: number,
): Promise<PeerRun> {
  const db = join(context.scratch, `lg-cycle-${mode}-${index}.db`);
  try {
    const args = ["--input-type=module", "-e", PEER_CYCLE, mode, String(steps), db];
    const out = await runNode(context, args, peerDir(context.repoRoot));
    return JSON.parse(out) as PeerRun;
  } finally {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${db}${suffix}`, { force: true });
  }
}

/** Runs node with `args` in `cwd` and resolves with the last stdout line. */
function runNode(context: SuiteContext, args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: childEnv(context.env) });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const stdout = Buffer.concat(out).toString("utf8").trim();
      if (code === 0) resolve(stdout.slice(stdout.lastIndexOf("\n") + 1));
      else reject(new Error(`node exited ${code}: ${Buffer.concat(err).toString("utf8").slice(-800)}`));
    });
  });
}
