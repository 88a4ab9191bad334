import { join } from "node:path";
import { createClaudeHarness } from "../../../harness/claude/index.ts";
import { startFakeAnthropic } from "../../fake-providers/index.ts";
import type { ConformanceSetup } from "../conformance-types.ts";
import { baseAgentEnv } from "./target-env.ts";

/**
 * The Claude harness: the real Claude Agent SDK and its Claude Code against the fake Anthropic server.
 * Claude Code's own retries are off (`maxRetries: 0`), so each fault reaches the runtime's policy.
 * Claude Code takes about 0.7 s to report its session, hence a 2 s idle timeout.
 */
export function claudeConformanceSetup(): ConformanceSetup {
  return {
    model: "haiku",
    modelServer: true,
    idleTimeoutSeconds: 5,
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
