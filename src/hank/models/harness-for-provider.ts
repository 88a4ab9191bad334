import type { HarnessKind } from "./model-types.ts";

/**
 * The harness that runs a provider's models by default: Anthropic models run on the Claude Agent SDK,
 * the scripted pseudo-provider on the scripted agent, and every other provider on the pi agent.
 * A `pi/<provider>/<model>` id bypasses this and always selects pi.
 */
export function harnessForProvider(provider: string): HarnessKind {
  if (provider === "anthropic") return "claude";
  if (provider === "scripted") return "scripted";
  if (provider === "command") return "command";
  return "pi";
}
