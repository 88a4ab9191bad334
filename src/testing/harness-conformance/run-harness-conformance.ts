import { after, before, describe, it } from "node:test";
import type { ConformanceSetup, ConformanceTarget } from "./conformance-types.ts";
import { faults } from "./fault-scenarios.ts";
import { contextOverflow, maxTokens } from "./output-scenarios.ts";
import type { Scenario } from "./scenario-kit.ts";
import { createSessionDirector } from "./session-director.ts";
import { continuePrevious, writeAndRun } from "./session-scenarios.ts";
import { budgetStop, idleTimeout } from "./stop-scenarios.ts";

/** Every scenario, in the order they run. Each runs whole hanks through the engine. */
export const CONFORMANCE_SCENARIOS: readonly Scenario[] = [
  writeAndRun,
  continuePrevious,
  faults,
  contextOverflow,
  idleTimeout,
  budgetStop,
  maxTokens,
];

/**
 * Registers the harness conformance suite with node:test: the same scenarios for every harness, each a
 * hank run through `runHank` with the harness under test as the only harness. The fixtures start once
 * (`before`) and stop at the end; scenarios run one after another, since a real agent session can
 * cost a process and 200 MB. A scenario listed in `setup.limitations` runs as `todo`.
 *
 * ```ts
 * runHarnessConformance("my-agent", { model: "pi/fake/fake-model", modelServer: true, start: async (director) => {
 *   const fake = await startFakeOpenAI(director.fakeScript);
 *   return { env: {...}, createHarness: (stateDir) => createMyHarness(fake.baseUrl, stateDir), close: () => fake.close() };
 * } });
 * ```
 */
export function runHarnessConformance(name: string, setup: ConformanceSetup): void {
  describe(`harness conformance: ${name}`, { concurrency: false }, () => {
    const director = createSessionDirector();
    let target: ConformanceTarget | undefined;
    before(async () => {
      target = await setup.start(director);
    });
    after(async () => {
      await target?.close();
    });
    for (const scenario of CONFORMANCE_SCENARIOS) {
      const limitation = setup.limitations?.[scenario.name];
      it(scenario.title, { ...(limitation !== undefined && { todo: limitation }) }, async () => {
        if (target === undefined) throw new Error("the conformance fixtures did not start");
        await scenario.run({ setup, target, director });
      });
    }
  });
}
