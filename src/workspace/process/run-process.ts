import { type ChildProcessByStdio, spawn } from "node:child_process";
import { statSync } from "node:fs";
import type { Readable } from "node:stream";
import type { TimerHandle } from "../../util/clock.ts";
import { killGroup } from "./kill-group.ts";
import { createOutputSink, type OutputSink, type OutputStream } from "./output-sink.ts";
import type { ProcessClock } from "./process-clock.ts";

/** Between SIGTERM and SIGKILL when a process is stopped (the reference's kill grace). */
export const KILL_GRACE_MS = 5_000;
/** Output delivered per process before the rest is dropped (see `truncated`). */
export const MAX_OUTPUT_BYTES = 4_000_000;

export interface RunProcessOptions {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The complete environment of the child; nothing is inherited. */
  readonly env: Readonly<Record<string, string>>;
  readonly clock: ProcessClock;
  /** Aborting stops the whole process group (see `runProcess`). */
  readonly signal?: AbortSignal;
  /** Stops the process group this long after the start, on the clock. */
  readonly timeoutMs?: number;
  readonly killGraceMs?: number;
  readonly maxOutputBytes?: number;
  /** Each output line, without its terminator, in arrival order per stream. */
  readonly onLine?: (stream: OutputStream, line: string) => void;
}

/**
 * How the process ended. `exited` and `signaled` are the process's own doing (a signal from
 * outside our wrapper counts as `signaled`); `aborted` and `timed-out` mean we stopped it;
 * `spawn-failed` means it never ran.
 */
export type ProcessEnd = "exited" | "signaled" | "aborted" | "timed-out" | "spawn-failed";

export interface ProcessResult {
  readonly end: ProcessEnd;
  /** The exit code when the leader exited by itself, else null. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The leader's pid, which is also the process group id; null when it never started. */
  readonly pid: number | null;
  /** Why it never ran, for `spawn-failed`. */
  readonly spawnError?: string;
  /** Bytes received on stdout and stderr together, delivered or not. */
  readonly outputBytes: number;
  /** Lines were dropped after `maxOutputBytes`. */
  readonly truncated: boolean;
}

/**
 * Runs a program as the leader of its own process group (`detached`), streaming its output as
 * lines. Settles once the leader has exited and every holder of its output pipes is gone, so a
 * background process that keeps stdout open keeps the run open too (redirect its output).
 *
 * Abort or timeout: SIGTERM to the whole group at once (grandchildren included), SIGKILL after
 * `killGraceMs` on the clock, and if the pipes are still held after another grace period (a
 * descendant that left the group), the pipes are closed and the promise settles anyway.
 * Never rejects.
 */
export function runProcess(options: RunProcessOptions): Promise<ProcessResult> {
  if (options.signal?.aborted) return Promise.resolve(notStarted("aborted"));
  const problem = workingDirectoryProblem(options.cwd);
  if (problem !== null) return Promise.resolve(notStarted("spawn-failed", problem));
  return new Promise((settle) => supervise(options, settle));
}

function supervise(options: RunProcessOptions, settle: (result: ProcessResult) => void): void {
  const sink = createOutputSink(options.maxOutputBytes ?? MAX_OUTPUT_BYTES, options.onLine);
  const timers = createTimers(options.clock);
  let spawnError: string | undefined;
  let settled = false;
  const child = spawn(options.file, [...options.args], {
    cwd: options.cwd,
    env: { ...options.env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const finish = (): void => {
    if (settled) return;
    settled = true;
    timers.clearAll();
    options.signal?.removeEventListener("abort", onAbort);
    sink.end();
    settle(resultOf(child, stopper.reason(), spawnError, sink));
  };
  const stopper = createStopper(child, timers, options.killGraceMs ?? KILL_GRACE_MS, finish);
  const onAbort = (): void => stopper.stop("aborted");
  child.stdout.on("data", (chunk: Buffer) => sink.push("stdout", chunk));
  child.stderr.on("data", (chunk: Buffer) => sink.push("stderr", chunk));
  child.on("error", (error) => {
    spawnError = error.message;
    if (child.pid === undefined) finish();
  });
  child.on("close", finish);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.timeoutMs !== undefined) timers.after(options.timeoutMs, () => stopper.stop("timed-out"));
}

type StopReason = "aborted" | "timed-out";

interface Timers {
  after(ms: number, callback: () => void): void;
  clearAll(): void;
}

function createTimers(clock: ProcessClock): Timers {
  const handles: TimerHandle[] = [];
  return {
    after: (ms, callback) => void handles.push(clock.setTimeout(callback, ms)),
    clearAll: () => {
      for (const handle of handles.splice(0)) clock.clearTimeout(handle);
    },
  };
}

/** SIGTERM to the group, SIGKILL after the grace, then stop waiting for the pipes after another. */
function createStopper(
  child: ChildProcessByStdio<null, Readable, Readable>,
  timers: Timers,
  grace: number,
  giveUp: () => void,
): { stop(reason: StopReason): void; reason(): StopReason | null } {
  let stoppedBy: StopReason | null = null;
  return {
    reason: () => stoppedBy,
    stop(reason) {
      const pid = child.pid;
      if (stoppedBy !== null || pid === undefined || child.stdout.closed) return;
      stoppedBy = reason;
      killGroup(pid, "SIGTERM");
      timers.after(grace, () => {
        killGroup(pid, "SIGKILL");
        timers.after(grace, () => {
          child.stdout.destroy();
          child.stderr.destroy();
          giveUp();
        });
      });
    },
  };
}

function resultOf(
  child: ChildProcessByStdio<null, Readable, Readable>,
  stoppedBy: StopReason | null,
  spawnError: string | undefined,
  sink: OutputSink,
): ProcessResult {
  const end = endOf(stoppedBy, spawnError, child.pid, child.exitCode);
  return {
    end,
    exitCode: end === "exited" ? child.exitCode : null,
    signal: child.signalCode,
    pid: child.pid ?? null,
    ...(end === "spawn-failed" ? { spawnError: spawnError ?? "the process did not start" } : {}),
    outputBytes: sink.bytes(),
    truncated: sink.truncated(),
  };
}

function endOf(
  stoppedBy: StopReason | null,
  spawnError: string | undefined,
  pid: number | undefined,
  exitCode: number | null,
): ProcessEnd {
  if (pid === undefined && spawnError !== undefined) return "spawn-failed";
  if (stoppedBy !== null) return stoppedBy;
  return exitCode !== null ? "exited" : "signaled";
}

function notStarted(end: "aborted" | "spawn-failed", spawnError?: string): ProcessResult {
  return {
    end,
    exitCode: null,
    signal: null,
    pid: null,
    ...(spawnError === undefined ? {} : { spawnError }),
    outputBytes: 0,
    truncated: false,
  };
}

/** Checked before spawning: a missing cwd would otherwise surface as a misleading "spawn bash ENOENT". */
function workingDirectoryProblem(cwd: string): string | null {
  try {
    return statSync(cwd).isDirectory() ? null : `working directory "${cwd}" is not a directory`;
  } catch {
    return `working directory "${cwd}" does not exist`;
  }
}
