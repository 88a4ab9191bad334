import type { ProcessClock } from "../process/process-clock.ts";
import { MAX_OUTPUT_BYTES, type ProcessResult } from "../process/run-process.ts";
import { runShellCommand } from "../process/run-shell-command.ts";
import { createOutputThrottle } from "./output-throttle.ts";
import type { RigEvent, RigOutputStream } from "./rig-events.ts";
import type { RigOpOutcome } from "./rig-op-outcome.ts";

/** Lines of output kept for the report of a failed command. */
export const OUTPUT_TAIL_LINES = 20;

export interface CommandOpContext {
  readonly codonId: string;
  readonly commandIndex: number;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly clock: ProcessClock;
  readonly signal: AbortSignal;
  readonly emit: (event: RigEvent) => void;
  readonly timeoutMs?: number;
  readonly killGraceMs?: number;
}

/**
 * One `command` operation: `bash -c <run>` in `cwd` with exactly `env`, as its own process group.
 * Output streams as throttled `rig.output` events; every line is emitted once, batched when needed.
 */
export async function runCommandOp(run: string, context: CommandOpContext): Promise<RigOpOutcome> {
  const throttleFor = (stream: RigOutputStream) =>
    createOutputThrottle(context.clock, (line) =>
      context.emit({
        type: "rig.output",
        data: { codonId: context.codonId, stream, line, commandIndex: context.commandIndex },
      }),
    );
  const throttles = { stdout: throttleFor("stdout"), stderr: throttleFor("stderr") };
  const { result, tail } = await runShellCommand(run, context, OUTPUT_TAIL_LINES, (stream, line) =>
    throttles[stream].push(line),
  );
  throttles.stdout.flush();
  throttles.stderr.flush();
  if (result.truncated) {
    const message = `Rig operation ${context.commandIndex + 1} output truncated: ${result.outputBytes} bytes written, the first ${MAX_OUTPUT_BYTES} shown`;
    context.emit({ type: "info", data: { message } });
  }
  return outcomeOf(result, run, tail, context.timeoutMs);
}

function outcomeOf(
  result: ProcessResult,
  run: string,
  outputTail: readonly string[],
  timeoutMs: number | undefined,
): RigOpOutcome {
  const failed = (failureType: "command_failed" | "timeout" | "other", message: string): RigOpOutcome => ({
    kind: "failed",
    failureType,
    message: `${message}: ${run}`,
    ...(result.exitCode === null ? {} : { exitCode: result.exitCode }),
    outputTail,
  });
  switch (result.end) {
    case "exited":
      if (result.exitCode === 0) return { kind: "done" };
      return failed("command_failed", `Command failed with exit code ${result.exitCode}`);
    case "signaled":
      return failed("command_failed", `Command was killed by ${result.signal ?? "a signal"}`);
    case "timed-out":
      return failed("timeout", `Command timed out after ${timeoutMs ?? 0} ms`);
    case "spawn-failed":
      return failed("other", `Command could not start (${result.spawnError ?? "unknown reason"})`);
    case "aborted":
      return { kind: "aborted" };
  }
}
