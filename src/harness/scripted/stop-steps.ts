import { classifyFailureText, exitWithoutResult, isContextOverflow } from "../classify-failure.ts";
import { worstEndReason } from "../end-reason.ts";
import { exhaustContextStep } from "./context-steps.ts";
import type { ProcessExit, ToolCallSketch } from "./script-step.ts";
import type { ScriptedTurn, TurnStop } from "./scripted-turn.ts";
import { SCRIPTED_TOOLS } from "./tool-steps.ts";

/**
 * The directives that end a turn, or mark it, the way a real agent's failures and limits do: a
 * provider error, a response cut at max tokens, a tool call refused by permissions, a process that
 * dies without a result.
 */

/**
 * `@fail`: a provider error, classified from its text. As in the real adapters, an error that says the
 * context overflowed is a context boundary, not a failure.
 */
export function failStep(turn: ScriptedTurn, text: string): TurnStop {
  if (isContextOverflow(text)) return exhaustContextStep(turn);
  return { kind: "failed", reason: classifyFailureText(text, true), stream: "error" };
}

/**
 * `@max-tokens`: the output limit cuts a tool call in half (a Write with no arguments yet when none is
 * named). The call is reported as it streamed, its arguments an unparsed fragment, and is never
 * executed. Without `continue` the turn stops there; with it the call gets an error result, the turn
 * goes on, and still ends max-tokens.
 */
export function maxTokensStep(
  turn: ScriptedTurn,
  call: ToolCallSketch | undefined,
  continues: boolean,
): TurnStop | undefined {
  const toolName = SCRIPTED_TOOLS[call?.tool ?? "write"];
  const toolUseId = turn.options.newId();
  turn.emittedChars += call?.argument.length ?? 0;
  turn.emit({
    type: "tool.use",
    toolUseId,
    toolName,
    input: { truncated: true, partialInput: partialInput(call) },
    effects: "none",
  });
  const limit = turn.request.model.maxOutputTokens;
  const at = limit === undefined ? "" : ` (${limit} tokens)`;
  const message = `Output stopped at the max output tokens limit${at} in the middle of a ${toolName} tool call${callTarget(call)}; the call was not executed`;
  if (!continues) return { kind: "max-tokens", message, stream: "max-tokens" };
  turn.emit({
    type: "tool.result",
    toolUseId,
    toolName,
    result: `Tool call ${toolName} was not executed: the response was cut off at the max output tokens limit, so its arguments are incomplete.`,
    isError: true,
    executionTimeMs: 0,
  });
  turn.toolBatch = "completed";
  turn.worstStep = worstEndReason(turn.worstStep, "max-tokens");
  turn.truncation ??= `${message}; the turn went on`;
  return undefined;
}

/** The arguments as they had streamed when the limit cut them: an unterminated JSON fragment. */
function partialInput(call: ToolCallSketch | undefined): string {
  if (call === undefined) return '{"file_path": "';
  const quoted = JSON.stringify(call.argument);
  switch (call.tool) {
    case "write":
      return `{"file_path": ${quoted}, "content": "`;
    case "append":
      return `{"file_path": ${quoted}, "append": "`;
    case "delete":
      return `{"file_path": ${quoted}`;
    case "run":
      return `{"command": ${quoted.slice(0, -1)}`;
  }
}

function callTarget(call: ToolCallSketch | undefined): string {
  if (call === undefined) return "";
  return call.tool === "run" ? ` (${call.argument})` : ` on ${call.argument}`;
}

/**
 * `@blocked`: the agent asks for a tool call and the permission system refuses it. The call is not
 * executed; the model gets the refusal as an error result and the script goes on. The tool batch ends
 * `blocked`, and so does the turn unless something worse happens. `why` follows "was denied" in the
 * refusal (a tool the agent's tool settings leave out says so).
 */
export function blockedStep(turn: ScriptedTurn, call: ToolCallSketch, why = ""): undefined {
  const toolName = SCRIPTED_TOOLS[call.tool];
  const toolUseId = turn.options.newId();
  const input = call.tool === "run" ? { command: call.argument } : { file_path: call.argument };
  turn.emittedChars += call.argument.length;
  turn.emit({ type: "tool.use", toolUseId, toolName, input, effects: "none" });
  turn.emit({
    type: "tool.result",
    toolUseId,
    toolName,
    result: `Permission to use ${toolName}${callTarget(call)} was denied${why}; the call was not executed.`,
    isError: true,
    executionTimeMs: 0,
  });
  turn.toolBatch = "blocked";
  turn.worstStep = worstEndReason(turn.worstStep, "blocked");
  return undefined;
}

/**
 * `@crash`: the agent's process ends without a result message. After a session started that is a
 * retriable failure, in the same words the process-based adapters use.
 */
export function crashStep(exit: ProcessExit): TurnStop {
  const reason =
    "code" in exit ? exitWithoutResult(exit.code, true) : exitWithoutResult(null, true, exit.signal);
  return { kind: "failed", reason, stream: "error" };
}
