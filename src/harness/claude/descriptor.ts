import { join } from "node:path";
import type { HarnessDescriptor } from "../descriptor.ts";
import { sdkProblem } from "../sdk-problem.ts";
import { createClaudeHarness } from "./claude-harness.ts";
import { CLAUDE_INSTALL_COMMAND, CLAUDE_SDK_PACKAGE } from "./load-sdk.ts";
import { selfTestClaude } from "./self-test.ts";

/**
 * The Claude Agent SDK: every model of the `anthropic` provider (the `haiku`/`sonnet`/`opus` aliases,
 * `anthropic/<id>` and bare Anthropic catalog ids), unless the id asks for pi with `pi/anthropic/...`.
 * Claude Code keeps its transcripts in one config directory per execution, so resume finds them.
 */
export const claudeDescriptor: HarnessDescriptor = {
  kind: "claude",
  displayName: "Claude",
  providers: ["anthropic"],
  // The reference runtime's default for the Claude SDK.
  defaultIdleTimeoutSeconds: 180,
  // Any name: the SDK takes built-in and MCP tool names alike (`tools`, `disallowedTools`).
  toolNames: "open",
  availability: () => sdkProblem(CLAUDE_SDK_PACKAGE, CLAUDE_INSTALL_COMMAND),
  selfTest: (_model, env) => {
    const test = selfTestClaude(env);
    return test.ok ? undefined : `${test.message} ${test.hint}`;
  },
  create: (_model, context) => createClaudeHarness({ configDir: () => join(context.stateDir, "claude") }),
};
