import { execFileSync } from "node:child_process";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";

/** The machine a bench ran on; the first line of every results file. */
export interface MachineLine {
  readonly bench: "machine";
  readonly date: string;
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGb: number;
  readonly node: string;
  readonly git: string;
  readonly platform: string;
  readonly loadAverage: readonly number[];
  readonly nodeExtraCaCerts: boolean;
  readonly quick: boolean;
}

export function machineLine(env: Readonly<Record<string, string | undefined>>, quick: boolean): MachineLine {
  let git = "not found";
  try {
    git = execFileSync("git", ["--version"], { encoding: "utf8" })
      .trim()
      .replace(/^git version /, "");
  } catch {
    // reported as "not found"; the checkpoint benchmarks will fail with their own message
  }
  return {
    bench: "machine",
    date: new Date().toISOString(),
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    git,
    platform: `${process.platform}-${process.arch}`,
    loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
    nodeExtraCaCerts: env.NODE_EXTRA_CA_CERTS !== undefined,
    quick,
  };
}
