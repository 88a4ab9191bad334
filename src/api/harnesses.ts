/**
 * `hankweave/harnesses`: the harness contract, the registry and the built-in harnesses (scripted,
 * Claude Agent SDK, pi, any CLI agent as a command), for programs that run codons on harnesses of
 * their choosing (`ExecutionOptions.harnesses`) or write their own.
 */

export { createClaudeHarness } from "../harness/claude/index.ts";
export { createCommandHarness, createCommandHarnesses } from "../harness/command/index.ts";
export type {
  Harness,
  HarnessEvent,
  HarnessRegistry,
  SessionOutcome,
  SessionRequest,
} from "../harness/harness.ts";
export type { HarnessContext, HarnessDescriptor } from "../harness/index.ts";
export { BUILTIN_HARNESSES, createHarnessRegistry, harnessFactories } from "../harness/index.ts";
export { createPiHarness } from "../harness/pi/index.ts";
export { createScriptedHarness } from "../harness/scripted/index.ts";
