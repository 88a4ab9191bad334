import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { JournalWriter, loadRunState, readSnapshot, writeSnapshot } from "../../src/journal/index.ts";
import { childEnv } from "../lib/child-env.ts";
import type { SuiteContext } from "../lib/suite.ts";
import { writeHank } from "./hank-fixture.ts";

/** Iterations of the loop the CLI runs to make the execution (10 events each). */
const ITERATIONS = 1000;

export interface ResumeTimes {
  /** Spawn to the resumed run's first codon on stderr, ms. */
  readonly firstCodonMs: number[];
  /** Spawn to exit: the one codon, and what the run does in the background (the journal's audit). */
  readonly exitMs: number[];
}

/**
 * An execution as the CLI leaves it: a loop of 1,000 scripted codons run headless with the built bin
 * (git checkpoints, the journal, `state.json`), then a copy whose journal is padded with `info` events
 * to `events` (its hash chain kept, `state.json` written for its end, as a long run leaves it).
 * Returns the hank and the two executions.
 */
export async function makeExecutions(
  context: SuiteContext,
  bin: string,
  events: number,
): Promise<{ hank: string; short: string; long: string }> {
  const root = join(context.scratch, "resume");
  const hank = writeHank(join(root, "hank"), {
    shape: { kind: "loop", iterations: ITERATIONS },
    prompt: "@say done\n@usage input=10 output=5",
  });
  const short = join(root, "short");
  mkdirSync(dataDir(hank), { recursive: true });
  const run = spawnSync(process.execPath, [bin, hank, dataDir(hank), "--headless", "-e", short], {
    env: childEnv(context.env),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`the execution to resume failed: ${run.stderr}`);
  const long = join(root, "long");
  cpSync(short, long, { recursive: true });
  pad(join(long, ".hankweave"), events);
  await snapshotAtEnd(long);
  // The limit raised by one: a resume runs exactly one more codon (accepted with -y).
  const file = join(hank, "hank.json");
  writeFileSync(
    file,
    readFileSync(file, "utf8").replace(`"limit": ${ITERATIONS}`, `"limit": ${ITERATIONS + 1}`),
  );
  return { hank, short, long };
}

/** An empty data folder beside the hank: the data source stays the same between the runs. */
function dataDir(hank: string): string {
  return join(hank, "..", "data");
}

function pad(stateDir: string, events: number): void {
  const path = join(stateDir, "events", "events.jsonl");
  const writer = JournalWriter.open(path);
  try {
    for (let seq = writer.lastSeq; seq < events; seq = writer.lastSeq) {
      const count = Math.min(1000, events - seq);
      writer.appendAll(
        Array.from({ length: count }, (_, i) => ({
          type: "info" as const,
          data: { message: `padding ${seq + i}: a line of a long history, about a short message long` },
        })),
      );
    }
  } finally {
    writer.close();
  }
}

/** `state.json` for the padded journal's end, with the plan the run saved. */
async function snapshotAtEnd(execution: string): Promise<void> {
  const stateDir = join(execution, ".hankweave");
  const saved = readSnapshot(stateDir);
  const loaded = await loadRunState(stateDir);
  writeSnapshot(stateDir, {
    runState: loaded.state,
    ...(saved.found && { executionPlan: saved.snapshot.executionPlan }),
  });
}

/** `runs` resumes of a fresh copy of `execution` each (after one not counted). */
export async function resumeTimes(
  context: SuiteContext,
  bin: string,
  input: { hank: string; execution: string; runs: number },
): Promise<ResumeTimes> {
  const firstCodonMs: number[] = [];
  const exitMs: number[] = [];
  for (let run = 0; run <= input.runs; run++) {
    const copy = `${input.execution}-resume`;
    rmSync(copy, { recursive: true, force: true });
    cpSync(input.execution, copy, { recursive: true });
    const times = await resumeOnce(context, bin, input.hank, copy);
    if (run > 0) {
      firstCodonMs.push(times.firstCodon);
      exitMs.push(times.exit);
    }
    rmSync(copy, { recursive: true, force: true });
  }
  return { firstCodonMs, exitMs };
}

function resumeOnce(
  context: SuiteContext,
  bin: string,
  hank: string,
  execution: string,
): Promise<{ firstCodon: number; exit: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, hank, dataDir(hank), "--headless", "-y", "-e", execution], {
      env: childEnv(context.env),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    let firstCodon: number | undefined;
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      if (firstCodon === undefined && stderr.includes(`#${ITERATIONS}`))
        firstCodon = performance.now() - started;
    });
    child.on("close", (code) => {
      const exit = performance.now() - started;
      if (code !== 0 || firstCodon === undefined) reject(new Error(`resume exited ${code}: ${stderr}`));
      else resolve({ firstCodon, exit });
    });
  });
}
