import { join } from "node:path";
import { createClaudeHarness } from "../../../harness/claude/index.ts";
import { startFakeAnthropic } from "../../fake-providers/index.ts";
import type { ConformanceSetup } from "../conformance-types.ts";
import { baseAgentEnv } from "./target-env.ts";

/**
 * The Claude harness: the real Claude Agent SDK and its Claude Code against the fake Anthropic server.
 * Claude Code's own retries are off (`maxRetries: 0`), so each fault reaches the runtime's policy.
 * Claude Code takes about 0.7 s to report its session on a quiet machine and up to 5 s in CI (two
 * cores, three test files at once); the idle timeout runs from the session's start, so the stall
 * scenario uses 10 s to leave the retried attempt room to boot.
 */
export function claudeConformanceSetup(): ConformanceSetup {
  return {
    model: "haiku",
    modelServer: true,
    idleTimeoutSeconds: 10,
    start: async (director) => {
      const fake = await startFakeAnthropic(director.fakeScript);
      return {
        env: baseAgentEnv({ ANTHROPIC_BASE_URL: fake.baseUrl, ANTHROPIC_API_KEY: "conformance-key" }),
        createHarness: (stateDir) =>
          createClaudeHarness({ maxRetries: 0, configDir: () => join(stateDir, "claude") }),
        close: () => fake.close(),
      };
    },
  };
}
