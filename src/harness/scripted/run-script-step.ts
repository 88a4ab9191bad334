import { classifyFailureText, isContextOverflow } from "../classify-failure.ts";
import { exhaustContextStep, usageStep } from "./context-steps.ts";
import type { ScriptStep } from "./script-step.ts";
import { abortedStop, type ScriptedTurn, type TurnStop } from "./scripted-turn.ts";
import { sleepOnClock } from "./sleep-on-clock.ts";
import { commandStep, deleteStep, SCRIPTED_TOOLS, writeStep } from "./tool-steps.ts";

/** Runs one step; returns why the turn stops, or undefined to go on with the next step. */
export async function runScriptStep(turn: ScriptedTurn, step: ScriptStep): Promise<TurnStop | undefined> {
  switch (step.kind) {
    case "prose":
    case "say":
      turn.emittedChars += step.text.length;
      turn.lastText = step.text;
      turn.emit({ type: "assistant.text", text: step.text });
      return undefined;
    case "think":
      turn.emittedChars += step.text.length;
      turn.emit({ type: "assistant.thinking", text: step.text });
      return undefined;
    case "write":
    case "append":
      return writeStep(turn, step.kind, step.path, step.text);
    case "delete":
      return deleteStep(turn, step.path);
    case "run":
      return commandStep(turn, step.command);
    case "usage":
      return usageStep(turn, step.usage);
    case "fail":
      return failStep(turn, step.attempts, step.text);
    case "exhaust-context":
      return exhaustContextStep(turn);
    case "max-tokens":
      return maxTokensStep(turn);
    case "sleep":
      return (await sleepOnClock(turn.options.clock, step.ms, turn.request.signal)) === "aborted"
        ? abortedStop(turn)
        : undefined;
  }
}

/**
 * `@fail`: a provider error on the listed attempts (all when none are listed), classified from its text.
 * As in the real adapters, an error that says the context overflowed is a context boundary, not a failure.
 */
function failStep(
  turn: ScriptedTurn,
  attempts: readonly number[] | null,
  text: string,
): TurnStop | undefined {
  if (attempts !== null && !attempts.includes(turn.request.attempt)) return undefined;
  if (isContextOverflow(text)) return exhaustContextStep(turn);
  return { kind: "failed", reason: classifyFailureText(text, true), stream: "error" };
}

/**
 * `@max-tokens`: the output limit cuts a Write call in half. The call is reported as it streamed (its
 * arguments an unparsed fragment) and is never executed: no result, no file change.
 */
function maxTokensStep(turn: ScriptedTurn): TurnStop {
  turn.emit({
    type: "tool.use",
    toolUseId: turn.options.newId(),
    toolName: SCRIPTED_TOOLS.write,
    input: { truncated: true, partialInput: '{"file_path": "' },
    // Never executed, so it changes nothing.
    effects: "none",
  });
  const limit = turn.request.model.maxOutputTokens;
  const at = limit === undefined ? "" : ` (${limit} tokens)`;
  const message = `Output stopped at the max output tokens limit${at} in the middle of a ${SCRIPTED_TOOLS.write} tool call; the call was not executed`;
  return { kind: "max-tokens", message, stream: "max-tokens" };
}
