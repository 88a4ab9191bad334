import type { OutputStream } from "./output-sink.ts";
import type { ProcessClock } from "./process-clock.ts";
import { type ProcessResult, runProcess } from "./run-process.ts";

/** Where and how a user's shell command line runs (rig commands, beforeCopy commands). */
export interface ShellCommandContext {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly clock: ProcessClock;
  readonly signal: AbortSignal;
  readonly timeoutMs?: number;
  readonly killGraceMs?: number;
}

/**
 * Runs `bash -c <run>` in its own process group, keeping the last `tailLines` output lines (stdout
 * and stderr interleaved) for the failure message; `onLine` sees every line as it arrives.
 */
export async function runShellCommand(
  run: string,
  context: ShellCommandContext,
  tailLines: number,
  onLine?: (stream: OutputStream, line: string) => void,
): Promise<{ readonly result: ProcessResult; readonly tail: readonly string[] }> {
  const tail: string[] = [];
  const result = await runProcess({
    file: "bash",
    args: ["-c", run],
    cwd: context.cwd,
    env: context.env,
    clock: context.clock,
    signal: context.signal,
    ...(context.timeoutMs === undefined ? {} : { timeoutMs: context.timeoutMs }),
    ...(context.killGraceMs === undefined ? {} : { killGraceMs: context.killGraceMs }),
    onLine: (stream, line) => {
      tail.push(line);
      if (tail.length > tailLines) tail.shift();
      onLine?.(stream, line);
    },
  });
  return { result, tail };
}
