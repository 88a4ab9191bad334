import { spawn } from "node:child_process";
import { join } from "node:path";
import { bundledEntry } from "./bundled-entry.ts";
import { childEnv } from "./child-env.ts";

/** A measurement that runs alone in a fresh Node process (clean heap, JIT and peak RSS). */
export interface CaseRequest {
  readonly name: string;
  readonly args: object;
  /** Runs of the case in the same process, one after another (default 1). */
  readonly repeat?: number;
  /** Extra `node` flags, e.g. `--cpu-prof`. */
  readonly nodeFlags?: readonly string[];
}

/** Resolves with one result per repeat. */
export type CaseRunner = <R>(request: CaseRequest) => Promise<R[]>;

/**
 * Runs `bench/worker.ts <name> <json args> <repeat>`, bundled (see bundled-entry.ts), and resolves with
 * the JSON array the worker prints as its last stdout line. Rejects with the worker's stderr tail when
 * it fails.
 */
export function createCaseRunner(
  repoRoot: string,
  env: Readonly<Record<string, string | undefined>>,
): CaseRunner {
  return <R>(request: CaseRequest): Promise<R[]> =>
    new Promise((resolve, reject) => {
      const worker = bundledEntry(repoRoot, join(repoRoot, "bench", "worker.ts"));
      // The tracing thread's entry, beside the worker as the CLI's bundle has it (trace-thread.ts).
      bundledEntry(repoRoot, join(repoRoot, "src", "observability", "trace-worker.ts"));
      const argv = [
        ...(request.nodeFlags ?? []),
        worker,
        request.name,
        JSON.stringify(request.args),
        String(request.repeat ?? 1),
      ];
      const child = spawn(process.execPath, argv, { cwd: repoRoot, env: childEnv(env) });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
      child.on("error", reject);
      child.on("close", (code) => {
        const stdout = Buffer.concat(out).toString("utf8").trim();
        const last = stdout.slice(stdout.lastIndexOf("\n") + 1);
        if (code !== 0 || last === "") {
          const tail = Buffer.concat(err).toString("utf8").trim().split("\n").slice(-15).join("\n");
          reject(new Error(`case ${request.name} exited with ${code}:\n${tail}`));
          return;
        }
        try {
          resolve(JSON.parse(last) as R[]);
        } catch {
          reject(new Error(`case ${request.name} printed no JSON result: ${last.slice(0, 200)}`));
        }
      });
    });
}
