import type { ProcessClock } from "../process/process-clock.ts";
import type { ProcessResult } from "../process/run-process.ts";
import { runShellCommand } from "../process/run-shell-command.ts";

/** Lines of output kept for the report of a failed beforeCopy command. */
export const BEFORE_COPY_TAIL_LINES = 20;

export interface BeforeCopyContext {
  /** agentRoot: beforeCopy commands always run there. */
  readonly cwd: string;
  /** The complete environment (the codon's, see buildAgentEnv); nothing else is inherited. */
  readonly env: Readonly<Record<string, string>>;
  readonly clock: ProcessClock;
  readonly signal: AbortSignal;
  readonly timeoutMs?: number;
  readonly killGraceMs?: number;
}

export type BeforeCopyOutcome =
  | { readonly kind: "done" }
  | {
      readonly kind: "failed";
      /** E.g. `beforeCopy command failed with exit code 1: make report`. */
      readonly message: string;
      readonly exitCode?: number;
      /** The last lines the command wrote, stdout and stderr interleaved. */
      readonly outputTail: readonly string[];
    }
  | { readonly kind: "aborted" };

/** One beforeCopy command: `bash -c <run>` as its own process group; abort stops the whole group. */
export async function runBeforeCopy(run: string, context: BeforeCopyContext): Promise<BeforeCopyOutcome> {
  const { result, tail } = await runShellCommand(run, context, BEFORE_COPY_TAIL_LINES);
  return outcomeOf(result, run, tail, context.timeoutMs);
}

function outcomeOf(
  result: ProcessResult,
  run: string,
  outputTail: readonly string[],
  timeoutMs: number | undefined,
): BeforeCopyOutcome {
  const failed = (what: string): BeforeCopyOutcome => ({
    kind: "failed",
    message: `beforeCopy command ${what}: ${run}`,
    ...(result.exitCode === null ? {} : { exitCode: result.exitCode }),
    outputTail,
  });
  switch (result.end) {
    case "exited":
      return result.exitCode === 0 ? { kind: "done" } : failed(`failed with exit code ${result.exitCode}`);
    case "signaled":
      return failed(`was killed by ${result.signal ?? "a signal"}`);
    case "timed-out":
      return failed(`timed out after ${timeoutMs ?? 0} ms`);
    case "spawn-failed":
      return failed(`could not start (${result.spawnError ?? "unknown reason"})`);
    case "aborted":
      return { kind: "aborted" };
  }
}
