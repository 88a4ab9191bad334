import { countCodons } from "../../journal/run-counts.ts";
import { leftUndoneText } from "../../journal/run-words.ts";
import type { HostEnd } from "../../server/index.ts";
import { shellCommand } from "../shell-quote.ts";

/**
 * A run's `--json` result: one object on stdout once the run is over (progress stays on stderr), for
 * scripts. `kind` is how the request ended (`ran`, `nothing-to-do`, `refused`, `invalid`); a run that
 * ran adds its outcome, the counts every face shows, cost, tokens, what a spent ceiling left undone,
 * and the command that resumes it when it did not complete.
 */
export function runJson(end: HostEnd): string {
  const { result } = end;
  if (result === undefined) {
    return line({ kind: "stopped", exitCode: end.exitCode, reason: end.reason, forced: end.forced });
  }
  switch (result.kind) {
    case "invalid":
      return line({ kind: "invalid", exitCode: result.exitCode, hank: result.hankPath });
    case "refused":
      return line({ kind: "refused", exitCode: result.exitCode, code: result.code, message: result.message });
    case "nothing-to-do":
      return line({
        kind: "nothing-to-do",
        exitCode: result.exitCode,
        message: result.message,
        execution: result.layout.executionDir,
      });
    case "ran": {
      const { state } = result;
      const { totals } = state;
      const completed = result.outcome === "completed";
      return line({
        kind: "ran",
        exitCode: result.exitCode,
        outcome: result.outcome,
        message: result.message,
        execution: result.layout.executionDir,
        workspace: result.layout.agentRoot,
        counts: countCodons(state.codons),
        costUsd: totals.cost,
        tokens: {
          input: totals.inputTokens,
          output: totals.outputTokens,
          cacheRead: totals.cacheReadTokens,
          cacheWrite: totals.cacheCreationTokens,
        },
        undone: leftUndoneText(state.codons) ?? null,
        resume: completed ? null : shellCommand(["hankweave", "--execution", result.layout.executionDir]),
      });
    }
  }
}

function line(value: Record<string, unknown>): string {
  return `${JSON.stringify(value)}\n`;
}
