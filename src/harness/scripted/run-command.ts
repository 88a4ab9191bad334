import { spawn } from "node:child_process";
import type { TimerHandle } from "../../util/clock.ts";
import type { HarnessClock } from "../harness-clock.ts";

/** Output kept per command; the rest is dropped with a note, so a chatty command cannot eat memory. */
export const MAX_OUTPUT_BYTES = 1_000_000;
/** Between SIGTERM and SIGKILL when a command is aborted (the reference's kill grace). */
export const KILL_GRACE_MS = 5_000;

export interface CommandOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  readonly clock: HarnessClock;
}

export interface CommandResult {
  /** stdout and stderr interleaved in arrival order. */
  readonly output: string;
  /** null when the process was killed by a signal or never started. */
  readonly exitCode: number | null;
  readonly exitSignal: string | null;
  /** The abort signal fired while the command ran. */
  readonly aborted: boolean;
  /** Why the process could not start (bash missing, cwd gone). */
  readonly spawnError?: string;
}

/**
 * Runs `bash -c <command>` in its own process group with exactly the given environment. On abort the
 * whole group gets SIGTERM, then SIGKILL after KILL_GRACE_MS on the injected clock; the promise settles
 * once the process has exited and its output pipes have closed. Never rejects.
 */
export function runCommand(command: string, options: CommandOptions): Promise<CommandResult> {
  return new Promise((settle) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let aborted = false;
    let spawnError: string | undefined;
    let killTimer: TimerHandle | undefined;
    const child = spawn("bash", ["-c", command], {
      cwd: options.cwd,
      env: { ...options.env },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const collect = (chunk: Buffer): void => {
      if (size < MAX_OUTPUT_BYTES) chunks.push(chunk.subarray(0, MAX_OUTPUT_BYTES - size));
      size += chunk.length;
    };
    const killGroup = (sig: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        // The group is already gone.
      }
    };
    const onAbort = (): void => {
      aborted = true;
      killGroup("SIGTERM");
      killTimer = options.clock.setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", (error) => {
      spawnError = error.message;
    });
    child.on("close", (code, exitSignal) => {
      options.signal.removeEventListener("abort", onAbort);
      if (killTimer !== undefined) options.clock.clearTimeout(killTimer);
      let output = Buffer.concat(chunks).toString("utf8");
      if (size > MAX_OUTPUT_BYTES) output += `\n[output truncated after ${MAX_OUTPUT_BYTES} bytes]`;
      const base = { output, exitCode: code, exitSignal, aborted };
      settle(spawnError === undefined ? base : { ...base, spawnError });
    });
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener("abort", onAbort, { once: true });
  });
}
