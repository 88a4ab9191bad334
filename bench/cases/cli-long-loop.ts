import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface CliLoopResult {
  readonly exitCode: number | null;
  /** Milliseconds between consecutive `loop.iteration.completed` events (journal timestamps). */
  readonly boundaries: number[];
  readonly maxRssMb: number | null;
  readonly timedOut: boolean;
}

export interface CliLoopRequest {
  readonly bin: string;
  readonly dir: string;
  readonly iterations: number;
  readonly env: Readonly<Record<string, string>>;
  /** Past this, the run gets SIGINT (it ends `aborted`) and the iterations reached are measured. */
  readonly deadlineMs: number;
}

const RSS_LINE = /^bench-max-rss-kb=(\d+)$/m;
const REPORT_RSS = join(import.meta.dirname, "..", "lib", "report-usage.mjs");

/**
 * `hankweave <hank> --headless` with the built bin, as a user runs it: a loop of one no-op scripted
 * codon, git checkpoints, the journal, `state.json`, progress on stderr.
 */
export async function runCliLongLoop(request: CliLoopRequest): Promise<CliLoopResult> {
  const hankDir = join(request.dir, "hank");
  mkdirSync(hankDir, { recursive: true });
  writeFileSync(join(hankDir, "hank.json"), JSON.stringify(loopHank(request.iterations)));
  const exec = join(request.dir, "exec");
  const args = ["--import", REPORT_RSS, request.bin, hankDir, "--headless", "-e", exec];
  const child = spawn(process.execPath, args, {
    cwd: request.dir,
    env: request.env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGINT");
  }, request.deadlineMs);
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  clearTimeout(timer);
  const rss = RSS_LINE.exec(stderr)?.[1];
  return {
    exitCode,
    boundaries: iterationGaps(join(exec, ".hankweave", "events", "events.jsonl")),
    maxRssMb: rss === undefined ? null : Number(rss) / 1024,
    timedOut,
  };
}

function loopHank(iterations: number): unknown {
  const codon = {
    id: "noop",
    name: "No-op",
    model: "scripted",
    continuationMode: "fresh",
    promptText: "Done.",
  };
  return {
    hank: [
      {
        type: "loop",
        id: "spin",
        name: "Spin",
        terminateOn: { type: "iterationLimit", limit: iterations },
        codons: [codon],
      },
    ],
  };
}

function iterationGaps(journal: string): number[] {
  const times = readFileSync(journal, "utf8")
    .split("\n")
    .filter((line) => line.includes('"loop.iteration.completed"'))
    .map((line) => Date.parse((JSON.parse(line) as { timestamp: string }).timestamp));
  return times.slice(1).map((time, index) => time - (times[index] ?? time));
}
