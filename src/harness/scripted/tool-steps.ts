import type { ToolEffects } from "../harness.ts";
import { deleteWorkspaceFile, type FileOpResult, writeWorkspaceFile } from "./file-ops.ts";
import type { CommandResult } from "./run-command.ts";
import { runCommand } from "./run-command.ts";
import { abortedStop, type ScriptedTurn, type TurnStop } from "./scripted-turn.ts";

/**
 * Tool names the scripted agent reports, in the style of coding agents' tools:
 * `@write` → Write, `@append` → Edit, `@delete` → Delete, `@run` → Bash.
 */
export const SCRIPTED_TOOLS = { write: "Write", append: "Edit", delete: "Delete", run: "Bash" } as const;

interface ToolOutcome {
  readonly result: string;
  readonly isError: boolean;
  readonly change?: { readonly path: string; readonly action: "created" | "modified" | "deleted" };
  readonly aborted?: boolean;
}

/**
 * Reports one tool call: `tool.use`, then runs it, then `tool.result` (timed on the injected clock) and
 * `file.changed` when a file changed. A failing tool is an error result for the model, never a stop;
 * only an abort while the tool ran stops the turn. Every tool here writes (Bash may), so none starts
 * once the process may no longer write (`mayWrite`): the turn stops as aborted, as the run is being
 * cancelled, and nothing is reported.
 */
async function runTool(
  turn: ScriptedTurn,
  toolName: string,
  input: Readonly<Record<string, unknown>>,
  act: () => Promise<ToolOutcome>,
): Promise<TurnStop | undefined> {
  const { clock, newId, mayWrite } = turn.options;
  if (!mayWrite()) return abortedStop(turn);
  const toolUseId = newId();
  const effects: ToolEffects = toolName === SCRIPTED_TOOLS.run ? "unknown" : "reported-files";
  turn.emit({ type: "tool.use", toolUseId, toolName, input, effects });
  const started = clock.now();
  const outcome = await act();
  const executionTimeMs = clock.now() - started;
  turn.emit({
    type: "tool.result",
    toolUseId,
    toolName,
    result: outcome.result,
    isError: outcome.isError,
    executionTimeMs,
  });
  if (outcome.change) turn.emit({ type: "file.changed", ...outcome.change, toolUseId });
  turn.toolBatch = outcome.aborted ? "aborted" : "completed";
  return outcome.aborted ? abortedStop(turn) : undefined;
}

function fromFileOp(op: FileOpResult): ToolOutcome {
  return op.ok
    ? { result: op.message, isError: false, change: op.change }
    : { result: op.message, isError: true };
}

export function writeStep(turn: ScriptedTurn, mode: "write" | "append", path: string, text: string) {
  turn.emittedChars += text.length;
  const input = mode === "write" ? { file_path: path, content: text } : { file_path: path, append: text };
  return runTool(turn, SCRIPTED_TOOLS[mode], input, async () =>
    fromFileOp(await writeWorkspaceFile(turn.request.cwd, path, text, mode)),
  );
}

export function deleteStep(turn: ScriptedTurn, path: string) {
  return runTool(turn, SCRIPTED_TOOLS.delete, { file_path: path }, async () =>
    fromFileOp(await deleteWorkspaceFile(turn.request.cwd, path)),
  );
}

export function commandStep(turn: ScriptedTurn, command: string) {
  turn.emittedChars += command.length;
  const { cwd, env, signal } = turn.request;
  return runTool(turn, SCRIPTED_TOOLS.run, { command }, async () =>
    formatCommandResult(await runCommand(command, { cwd, env, signal, clock: turn.options.clock })),
  );
}

/** The Bash tool result: the combined output, then a bracketed status line. Non-zero exit is an error. */
export function formatCommandResult(run: CommandResult): ToolOutcome {
  if (run.spawnError !== undefined) {
    return { result: `Command could not start: ${run.spawnError}`, isError: true, aborted: run.aborted };
  }
  const status = run.aborted
    ? "[aborted]"
    : run.exitCode !== null
      ? `[exit code ${run.exitCode}]`
      : `[killed by ${run.exitSignal ?? "unknown signal"}]`;
  const separator = run.output === "" || run.output.endsWith("\n") ? "" : "\n";
  return {
    result: `${run.output}${separator}${status}`,
    isError: run.aborted || run.exitCode !== 0,
    aborted: run.aborted,
  };
}
