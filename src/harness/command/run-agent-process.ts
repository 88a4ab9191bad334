import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import type { TimerHandle } from "../../util/clock.ts";
import type { HarnessClock } from "../harness-clock.ts";
import type { ProcessExit } from "./decide-outcome.ts";

/** Longest stdout line kept; a longer one is dropped whole (cut JSON cannot be parsed anyway). */
export const MAX_LINE_CHARS = 32 * 1024 * 1024;
/** How much of stderr is kept for classification (its end). */
export const STDERR_TAIL_CHARS = 8 * 1024;

export interface AgentProcessOptions {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The complete environment; nothing is inherited. */
  readonly env: Readonly<Record<string, string>>;
  /** Written to stdin, which is then closed; without it stdin is closed at once (EOF). */
  readonly stdin?: string;
  readonly signal: AbortSignal;
  readonly clock: HarnessClock;
  readonly killGraceMs: number;
  readonly onStdoutLine: (line: string) => void;
}

export interface AgentProcessResult extends ProcessExit {
  /** The signal fired before the process ended by itself; the group was stopped. */
  readonly aborted: boolean;
  readonly stderrTail: string;
  /** The leader's pid (also the process group id); null when it never started. */
  readonly pid: number | null;
}

/** Splits decoded stdout into lines (LF, optional CR), dropping lines longer than MAX_LINE_CHARS. */
function createLineReader(onLine: (line: string) => void): { push(chunk: Buffer): void; end(): void } {
  const decoder = new StringDecoder("utf8");
  let partial = "";
  let overlong = false;
  const take = (text: string): void => {
    const parts = (partial + text).split("\n");
    partial = parts.pop() ?? "";
    for (const part of parts) {
      if (!overlong) onLine(part.endsWith("\r") ? part.slice(0, -1) : part);
      overlong = false;
    }
    if (partial.length > MAX_LINE_CHARS) {
      partial = "";
      overlong = true;
    }
  };
  return {
    push: (chunk) => take(decoder.write(chunk)),
    end() {
      take(decoder.end());
      if (partial !== "" && !overlong) onLine(partial);
      partial = "";
    },
  };
}

/** Signals the whole group; false when it is gone. */
function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs an agent as the leader of its own process group and streams its stdout as lines. On abort,
 * and also once the leader exits (so no descendant outlives the session): SIGTERM to the group,
 * SIGKILL after `killGraceMs` on the clock, and if the pipes are still held after another grace (a
 * descendant that left the group), they are closed and the result settles anyway. Never rejects.
 */
export function runAgentProcess(options: AgentProcessOptions): Promise<AgentProcessResult> {
  const problem = workingDirectoryProblem(options.cwd);
  if (problem !== null) {
    return Promise.resolve({
      exitCode: null,
      signal: null,
      spawnError: problem,
      aborted: false,
      stderrTail: "",
      pid: null,
    });
  }
  return new Promise((settle) => supervise(options, settle));
}

interface GroupStopper {
  /** SIGTERM to the group now, SIGKILL after the grace, then stop waiting for the pipes after another. */
  stop(): void;
  clear(): void;
}

function createGroupStopper(
  pid: number | undefined,
  clock: HarnessClock,
  graceMs: number,
  giveUp: () => void,
): GroupStopper {
  const timers: TimerHandle[] = [];
  let stopping = false;
  return {
    stop() {
      if (stopping || pid === undefined) return;
      stopping = true;
      signalGroup(pid, "SIGTERM");
      const kill = (): void => {
        signalGroup(pid, "SIGKILL");
        timers.push(clock.setTimeout(giveUp, graceMs));
      };
      timers.push(clock.setTimeout(kill, graceMs));
    },
    clear() {
      for (const handle of timers.splice(0)) clock.clearTimeout(handle);
    },
  };
}

function supervise(options: AgentProcessOptions, settle: (result: AgentProcessResult) => void): void {
  const lines = createLineReader(options.onStdoutLine);
  let stderr = "";
  let spawnError: string | undefined;
  let aborted = false;
  let settled = false;
  const child = spawn(options.file, [...options.args], {
    cwd: options.cwd,
    env: { ...options.env },
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const finish = (): void => {
    if (settled) return;
    settled = true;
    stopper.clear();
    options.signal.removeEventListener("abort", onAbort);
    lines.end();
    const exit = {
      exitCode: child.exitCode,
      signal: child.signalCode,
      aborted,
      stderrTail: stderr,
      pid: child.pid ?? null,
    };
    settle(spawnError !== undefined && child.pid === undefined ? { ...exit, spawnError } : exit);
  };
  const stopper = createGroupStopper(child.pid, options.clock, options.killGraceMs, () => {
    // A descendant that left the group still holds the pipes: stop waiting for it.
    child.stdout.destroy();
    child.stderr.destroy();
    finish();
  });
  const onAbort = (): void => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    aborted = true;
    stopper.stop();
  };
  child.stdout.on("data", (chunk: Buffer) => lines.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
  });
  child.on("error", (error) => {
    spawnError = error.message;
    if (child.pid === undefined) finish();
  });
  child.on("exit", () => stopper.stop());
  child.on("close", finish);
  // An agent that exits without reading its stdin makes the write fail with EPIPE: not our failure.
  child.stdin.on("error", () => undefined);
  child.stdin.end(options.stdin ?? "");
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener("abort", onAbort, { once: true });
}

/** Checked before spawning: a missing cwd would otherwise surface as a misleading "spawn <cmd> ENOENT". */
function workingDirectoryProblem(cwd: string): string | null {
  try {
    return statSync(cwd).isDirectory() ? null : `working directory "${cwd}" is not a directory`;
  } catch {
    return `working directory "${cwd}" does not exist`;
  }
}
