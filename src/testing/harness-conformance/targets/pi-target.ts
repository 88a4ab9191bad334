import { join } from "node:path";
import { createPiHarness, importPiSdk } from "../../../harness/pi/index.ts";
import { startFakeOpenAI } from "../../fake-providers/index.ts";
import type { ConformanceSetup } from "../conformance-types.ts";
import { baseAgentEnv } from "./target-env.ts";

/** The fake provider's one model, with prices so that pi reports costs. */
export const PI_FAKE_MODEL = {
  id: "fake-model",
  contextWindow: 128_000,
  maxTokens: 4096,
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};

/**
 * The pi harness: the real pi SDK in process against the fake OpenAI server, configured as provider
 * `fake` through the harness options. pi is imported once before the first scenario (about 1.7 s), so
 * no session pays for it.
 */
export function piConformanceSetup(): ConformanceSetup {
  return {
    model: "pi/fake/fake-model",
    modelServer: true,
    start: async (director) => {
      const loaded = await importPiSdk();
      if (!loaded.ok) throw new Error(loaded.message);
      const fake = await startFakeOpenAI(director.fakeScript);
      return {
        env: baseAgentEnv(),
        createHarness: (stateDir) =>
          createPiHarness({
            sessionDir: join(stateDir, "pi-sessions"),
            providers: {
              fake: { baseUrl: `${fake.baseUrl}/v1`, api: "openai-completions", models: [PI_FAKE_MODEL] },
            },
            resolveModel: () => undefined,
          }),
        close: () => fake.close(),
      };
    },
  };
}
