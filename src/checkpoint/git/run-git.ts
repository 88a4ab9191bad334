import { spawn } from "node:child_process";
import { CheckpointError } from "../checkpoint-error.ts";

/**
 * One git process: `git <args>` in the work tree with the isolated environment, stdin fed from `input`,
 * stdout collected whole. Exit codes outside `okCodes` (default `[0]`) reject with `git-failed`; a git
 * that cannot be started rejects with `git-unavailable`.
 */
export interface GitCall {
  readonly args: readonly string[];
  readonly input?: string;
  /** Variables added to the base environment for this call (commit dates). */
  readonly env?: Readonly<Record<string, string>>;
  readonly okCodes?: readonly number[];
}

export interface GitResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

export type RunGit = (call: GitCall) => Promise<GitResult>;

export interface GitRunnerOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Called with the arguments of every git process before it starts (spawn counting in benchmarks). */
  readonly trace?: (args: readonly string[]) => void;
  /** Runs before every git process starts (the store's files are checked there). */
  readonly beforeSpawn?: () => void;
}

export function createGitRunner(options: GitRunnerOptions): RunGit {
  return (call) => {
    options.trace?.(call.args);
    try {
      options.beforeSpawn?.();
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      const child = spawn("git", [...call.args], {
        cwd: options.cwd,
        env: { ...options.env, ...call.env },
      });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
      child.on("error", (error) => reject(unavailable(options.cwd, call.args, error)));
      child.on("close", (code, signal) => {
        const result: GitResult = {
          exitCode: code ?? -1,
          stdout: Buffer.concat(stdout).toString("utf8"),
          stderr: Buffer.concat(stderr).toString("utf8"),
        };
        if ((call.okCodes ?? [0]).includes(result.exitCode)) resolve(result);
        else reject(failed(call.args, result, signal));
      });
      child.stdin.on("error", () => {}); // git may exit before reading all of stdin; its exit code tells why
      child.stdin.end(call.input ?? "");
    });
  };
}

function unavailable(cwd: string, args: readonly string[], error: Error): CheckpointError {
  return new CheckpointError(
    "git-unavailable",
    `Could not start git for checkpoints (${error.message}); install git and check that ${cwd} exists.`,
    { args },
  );
}

function failed(args: readonly string[], result: GitResult, signal: NodeJS.Signals | null): CheckpointError {
  const reason = signal === null ? `exited with code ${result.exitCode}` : `was killed by ${signal}`;
  const detail = result.stderr.trim().split("\n").slice(-3).join(" ");
  return new CheckpointError(
    "git-failed",
    `Checkpoint command "git ${args[0] ?? ""}" ${reason}${detail === "" ? "" : `: ${detail}`}`,
    { args, exitCode: result.exitCode, stderr: result.stderr },
  );
}
