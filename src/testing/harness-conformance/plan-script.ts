import { FAULT_TEXTS, type SessionPlan, type ToolStep } from "./session-plan.ts";

/** Long enough to outlast any idle timeout or budget of a scenario; the runtime cancels it. */
const HANG_MS = 600_000;

/**
 * The scripted agent's prompt that acts out `plan` (docs/scripted-agent.md): the same model behaviour
 * the fake providers give the real agents, as directives.
 */
export function planScript(plan: SessionPlan): string {
  switch (plan.kind) {
    case "work":
      return [...plan.steps.map(stepDirective), `@say ${escapeText(plan.text)}`].join("\n");
    case "fault":
      return `@fail ${FAULT_TEXTS[plan.fault]}`;
    case "overflow":
      return "@exhaust-context";
    case "max-tokens":
      return "@max-tokens";
    case "stall":
      return `@sleep ${HANG_MS}`;
    case "over-budget":
      return [
        `@usage input=100 output=${plan.outputTokens}`,
        stepDirective(plan.step),
        `@sleep ${HANG_MS}`,
      ].join("\n");
  }
}

function stepDirective(step: ToolStep): string {
  return step.kind === "run" ? `@run ${step.command}` : `@write ${step.path} ${escapeText(step.content)}`;
}

/** A directive's text: `\\` for a backslash and `\n` for a newline. */
function escapeText(text: string): string {
  return text.replaceAll("\\", "\\\\").replaceAll("\n", "\\n");
}
