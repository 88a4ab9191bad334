import { randomUUID } from "node:crypto";
import { systemClock } from "../../../engine/index.ts";
import type { Harness } from "../../../harness/harness.ts";
import { createScriptedHarness } from "../../../harness/scripted/index.ts";
import type { ConformanceSetup } from "../conformance-types.ts";
import { planScript } from "../plan-script.ts";
import type { SessionDirector } from "../session-director.ts";
import { baseAgentEnv } from "./target-env.ts";

/**
 * The scripted agent under the conformance suite. It has no model server: its "model" is its prompt,
 * so each session's prompt is replaced by the directives that act out the session's plan.
 */
export function scriptedConformanceSetup(): ConformanceSetup {
  return {
    model: "scripted",
    modelServer: false,
    start: async (director) => ({
      env: baseAgentEnv(),
      createHarness: () =>
        withPlanScripts(createScriptedHarness({ clock: systemClock(), newId: randomUUID }), director),
      close: async () => undefined,
    }),
  };
}

/** The harness, with every session's prompt replaced by the script of the director's current plan. */
export function withPlanScripts(inner: Harness, director: SessionDirector): Harness {
  return {
    name: inner.name,
    capabilities: inner.capabilities,
    start: (request) => inner.start({ ...request, prompt: planScript(director.current()) }),
  };
}
