import { toolPermitted } from "../harness.ts";
import { exhaustContextStep, usageStep } from "./context-steps.ts";
import type { ScriptStep, ToolCallSketch } from "./script-step.ts";
import { abortedStop, type ScriptedTurn, type TurnStop } from "./scripted-turn.ts";
import { sleepOnClock } from "./sleep-on-clock.ts";
import { blockedStep, crashStep, failStep, maxTokensStep } from "./stop-steps.ts";
import { commandStep, deleteStep, SCRIPTED_TOOLS, writeStep } from "./tool-steps.ts";

/**
 * Runs one step; returns why the turn stops, or undefined to go on with the next step. A tool call
 * the request's tool settings leave out is refused as `@blocked` refuses one: not executed, an error
 * result, and the turn ends `blocked`.
 */
export async function runScriptStep(turn: ScriptedTurn, step: ScriptStep): Promise<TurnStop | undefined> {
  const call = toolCallOf(step);
  if (call !== undefined && !toolPermitted(turn.request.tools, SCRIPTED_TOOLS[call.tool])) {
    return blockedStep(turn, call, " (the agent's tool settings leave it out)");
  }
  return runStep(turn, step);
}

/** The tool call a step makes, if it makes one. */
function toolCallOf(step: ScriptStep): ToolCallSketch | undefined {
  switch (step.kind) {
    case "write":
    case "append":
    case "delete":
      return { tool: step.kind, argument: step.path };
    case "run":
      return { tool: "run", argument: step.command };
    default:
      return undefined;
  }
}

async function runStep(turn: ScriptedTurn, step: ScriptStep): Promise<TurnStop | undefined> {
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
      return failStep(turn, step.text);
    case "exhaust-context":
      return exhaustContextStep(turn);
    case "max-tokens":
      return maxTokensStep(turn, step.call, step.continues);
    case "blocked":
      return blockedStep(turn, step.call);
    case "crash":
      return crashStep(step.exit);
    case "sleep":
      return (await sleepOnClock(turn.options.clock, step.ms, turn.request.signal)) === "aborted"
        ? abortedStop(turn)
        : undefined;
  }
}
