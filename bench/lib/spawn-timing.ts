import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";

export interface SpawnSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

/** Milliseconds from just before `spawn` until the process has exited and closed its output. */
export async function timeToExit(spec: SpawnSpec): Promise<number> {
  return (await runToExit(spec)).ms;
}

/**
 * Runs the process to its exit: the milliseconds from just before `spawn` until it has exited and
 * closed its output, and its stderr. A non-zero exit rejects with the end of the stderr.
 */
export function runToExit(spec: SpawnSpec): Promise<{ readonly ms: number; readonly stderr: string }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const err: Buffer[] = [];
    child.stdout.resume();
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - start;
      const stderr = Buffer.concat(err).toString();
      if (code === 0) resolve({ ms, stderr });
      else reject(new Error(`${spec.command} ${spec.args.join(" ")} exited ${code}: ${stderr.slice(-400)}`));
    });
  });
}

/**
 * Milliseconds from just before `spawn` until a stderr line matches `pattern`; the process is then
 * killed (it is ours) and awaited, so the next measurement starts on a quiet machine.
 */
export function timeToStderrLine(spec: SpawnSpec, pattern: RegExp): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let seen = "";
    let found: number | undefined;
    child.stdout.resume();
    child.stderr.on("data", (chunk: Buffer) => {
      if (found !== undefined) return;
      seen += chunk.toString("utf8");
      if (pattern.test(seen)) {
        found = performance.now() - start;
        child.kill("SIGKILL");
      }
    });
    child.on("error", reject);
    child.on("close", () => {
      if (found !== undefined) resolve(found);
      else reject(new Error(`no line matched ${pattern} before exit:\n${seen.slice(-600)}`));
    });
  });
}
