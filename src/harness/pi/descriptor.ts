import { join } from "node:path";
import type { HarnessDescriptor } from "../descriptor.ts";
import { sdkProblem } from "../sdk-problem.ts";
import { createPiHarness } from "./pi-harness.ts";
import { PI_AGENT_PACKAGE, PI_INSTALL_COMMAND } from "./pi-sdk.ts";
import { selfTestPi } from "./self-test.ts";
import { PI_TOOLS } from "./tool-facts.ts";

/**
 * The embedded pi coding agent: any `pi/<provider>/<model>` id, and every catalog model whose provider
 * no other harness claims (openai, google, groq, openrouter...). One instance serves every provider;
 * its sessions live in the execution's state directory.
 */
export const piDescriptor: HarnessDescriptor = {
  kind: "pi",
  displayName: "pi",
  idPrefix: "pi",
  providers: "*",
  // The reference runtime's default for pi.
  defaultIdleTimeoutSeconds: 120,
  toolNames: PI_TOOLS,
  availability: () => sdkProblem(PI_AGENT_PACKAGE, PI_INSTALL_COMMAND),
  selfTest: (model, env) => {
    const test = selfTestPi(model, env);
    return test.ok ? undefined : test.message;
  },
  create: (_model, context) =>
    createPiHarness({
      sessionDir: join(context.stateDir, "pi-sessions"),
      clock: context.clock,
      ...(context.mayWrite !== undefined && { mayWrite: context.mayWrite }),
    }),
};
