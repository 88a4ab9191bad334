import { spawn, spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { childEnv } from "./child-env.ts";
import type { SuiteContext } from "./suite.ts";

/** What `bench/peers/langgraph/lg-bench.mjs` prints. */
export interface LangGraphRun {
  readonly mode: string;
  readonly steps: number;
  readonly importMs: number;
  readonly invokeMs: number;
  readonly perStepMs: number;
  readonly maxRssMb: number;
  readonly firstStepAt: string | null;
  readonly persisted: {
    readonly checkpointRows: number;
    readonly checkpointBytes: number;
    readonly writeRows: number;
    readonly writeBytes: number;
    readonly journalMode: string;
    readonly synchronous: number;
  } | null;
  /** Spawn to the first node execution, measured by the parent on the monotonic clock. */
  coldStartMs?: number;
}

export function peerDir(repoRoot: string): string {
  return join(repoRoot, "bench", "peers", "langgraph");
}

/**
 * Installs the peer into its own folder when its modules are missing (`npm ci --prefix` from its
 * lockfile; compiling better-sqlite3 takes 1 to 6 minutes here). The project's own install never sees
 * it. Returns a reason when the peer cannot be used.
 */
export function ensurePeer(context: SuiteContext): string | undefined {
  const dir = peerDir(context.repoRoot);
  const marker = join(dir, "node_modules", "@langchain", "langgraph-checkpoint-sqlite", "package.json");
  if (existsSync(marker)) return undefined;
  context.log("  installing the LangGraph peer (npm ci --prefix bench/peers/langgraph; 1-6 min, once)");
  const lockfile = existsSync(join(dir, "package-lock.json"));
  const result = spawnSync("npm", [lockfile ? "ci" : "install", "--prefix", dir, "--no-audit", "--no-fund"], {
    cwd: dir,
    env: childEnv(context.env, true),
    encoding: "utf8",
  });
  if (result.status === 0 && existsSync(marker)) return undefined;
  return `peer install failed (exit ${result.status}): ${(result.stderr ?? "").trim().split("\n").slice(-3).join(" ")}`;
}

/** One run of the peer in a fresh process with a fresh database file. */
export function runPeer(
  context: SuiteContext,
  mode: "none" | "sqlite",
  steps: number,
  index: number,
): Promise<LangGraphRun> {
  const dir = peerDir(context.repoRoot);
  const db = join(context.scratch, `lg-${mode}-${index}.db`);
  return new Promise((resolve, reject) => {
    const before = process.hrtime.bigint();
    const startedAt = performance.now();
    const child = spawn(process.execPath, [join(dir, "lg-bench.mjs"), mode, String(steps), "async", db], {
      cwd: dir,
      env: childEnv(context.env),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${db}${suffix}`, { force: true });
      if (code !== 0) {
        reject(
          new Error(
            `lg-bench exited ${code} after ${Math.round(performance.now() - startedAt)} ms: ${Buffer.concat(err).toString().slice(-500)}`,
          ),
        );
        return;
      }
      const run = JSON.parse(Buffer.concat(out).toString().trim()) as LangGraphRun;
      if (run.firstStepAt !== null) run.coldStartMs = Number(BigInt(run.firstStepAt) - before) / 1e6;
      resolve(run);
    });
  });
}
