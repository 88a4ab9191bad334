/**
 * The fresh-process side of suite 7 (`loop-api.ts`), which runs it bundled (bench/lib/bundled-entry.ts);
 * `node --import tsx bench/suites/loop-api-worker.ts '<json args>'` runs it from the sources. Times one
 * case and prints its result as one JSON line.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { SessionRequest } from "../../src/harness/harness.ts";
import { createScriptedHarness } from "../../src/harness/scripted/index.ts";
import { systemClock } from "../../src/util/clock.ts";
import { loop } from "../../src/workflows/index.ts";

/** Every step's prompt: prose the scripted agent echoes, so each output is the next step's same input. */
const STEP_PROMPT = "ok";

export interface CaseArgs {
  /** Steps of the measured loop (two agents, so iterations = steps / 2). */
  readonly steps: number;
  readonly durable: boolean;
}

export interface CaseResult {
  /** Milliseconds of one bare scripted session on the step prompt (start, drain events, outcome). */
  readonly floorMs: number;
  /** Marginal milliseconds per step: (loop of `steps` − loop of 2 steps) / (steps − 2). */
  readonly perStepMs: number;
  /** The same two, in CPU time of this process and the children it waited for (git): load-proof. */
  readonly floorCpuMs: number;
  readonly perStepCpuMs: number;
  /**
   * `perStepMs` measured again after loops of 4 x `steps` more steps in the same process: V8 optimizes
   * the step's code over thousands of steps (a 1,000-step loop took 380-440 ms in its first two runs in a
   * process, 80-180 ms from its fifth run on), so this is the cost a long-running process pays per step.
   */
  readonly warmPerStepMs: number;
  /** The fixed cost of one `loop()` call: the 2-step loop minus two marginal steps. */
  readonly setupMs: number;
  readonly steps: number;
  readonly converged: boolean;
}

/** A loop of `steps` steps (two scripted agents), in a fresh workspace; its wall time. */
async function timeLoop(
  steps: number,
  durable: boolean,
): Promise<{ ms: number; cpuMs: number; converged: boolean }> {
  const dir = mkdtempSync(join(tmpdir(), "hankweave-bench-loop-"));
  try {
    const cpuStart = cpuMs();
    const start = performance.now();
    const result = await loop({
      steps: [
        { name: "coder", model: "scripted" },
        { name: "reviewer", model: "scripted" },
      ],
      input: STEP_PROMPT,
      maxIterations: steps / 2,
      ...(durable ? { durable: { dir } } : { cwd: dir }),
    });
    const ms = performance.now() - start;
    return { ms, cpuMs: cpuMs() - cpuStart, converged: result.converged && result.steps.length === steps };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * CPU milliseconds used so far by this process and by the children it has waited for (git), from
 * /proc/self/stat (`utime stime cutime cstime`, in clock ticks of 10 ms); Node's own counter where
 * there is no /proc.
 */
function cpuMs(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = [11, 12, 13, 14].reduce((sum, at) => sum + Number(fields[at] ?? 0), 0);
    return ticks * 10;
  } catch {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  }
}

/** The bare harness call: a scripted session on the step prompt, drained, `sessions` times. */
async function agentFloor(sessions: number): Promise<{ ms: number; cpuMs: number }> {
  const cwd = mkdtempSync(join(tmpdir(), "hankweave-bench-floor-"));
  try {
    const harness = createScriptedHarness({ clock: systemClock() });
    const request: Omit<SessionRequest, "codonId"> = {
      prompt: STEP_PROMPT,
      model: { requested: "scripted", id: "scripted", provider: "scripted" },
      cwd,
      env: { PATH: process.env.PATH ?? "" },
      autoCompact: false,
      attempt: 1,
      extension: 0,
      signal: new AbortController().signal,
    };
    const cpuStart = cpuMs();
    const start = performance.now();
    for (let i = 0; i < sessions; i++) {
      const session = harness.start({ ...request, codonId: `step#${i}` });
      for await (const _event of session) {
        // drained, as the engine reads every event
      }
      await session.outcome;
    }
    return { ms: (performance.now() - start) / sessions, cpuMs: (cpuMs() - cpuStart) / sessions };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

export async function runCase(args: CaseArgs): Promise<CaseResult> {
  await timeLoop(2, args.durable); // warm-up: module loading and JIT out of the figures
  const small = await timeLoop(2, args.durable);
  const big = await timeLoop(args.steps, args.durable);
  const perStepMs = (big.ms - small.ms) / (args.steps - 2);
  const floor = await agentFloor(args.steps);
  for (let i = 0; i < 4; i++) await timeLoop(args.steps, args.durable);
  const warmSmall = await timeLoop(2, args.durable);
  const warmBig = await timeLoop(args.steps, args.durable);
  return {
    warmPerStepMs: (warmBig.ms - warmSmall.ms) / (args.steps - 2),
    floorMs: floor.ms,
    perStepMs,
    floorCpuMs: floor.cpuMs,
    perStepCpuMs: (big.cpuMs - small.cpuMs) / (args.steps - 2),
    setupMs: small.ms - 2 * perStepMs,
    steps: args.steps,
    converged: small.converged && big.converged,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await runCase(JSON.parse(process.argv[2] ?? "{}") as CaseArgs);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
