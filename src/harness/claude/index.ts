export { createClaudeHarness } from "./claude-harness.ts";
export type { ClaudeHarnessOptions } from "./claude-options.ts";
export {
  type AvailabilityDeps,
  CLAUDE_INSTALL_COMMAND,
  CLAUDE_NOT_INSTALLED,
  CLAUDE_SDK_PACKAGE,
  type ClaudeAvailability,
  checkClaudeAvailable,
  type SdkLoad,
} from "./load-sdk.ts";
export {
  type ClaudeSelfTest,
  type ClaudeSelfTestDeps,
  claudeCredentialSource,
  selfTestClaude,
} from "./self-test.ts";
