import { join } from "node:path";
import type { HarnessDescriptor } from "../descriptor.ts";
import { parseScript } from "./parse-script.ts";
import { createScriptedHarness } from "./scripted-harness.ts";

/**
 * The offline scripted agent: `scripted` and `scripted/<name>`. It needs no SDK and no credentials,
 * so its self-test always passes. Sessions persist in the execution's state directory, so a resumed
 * execution can continue them.
 */
export const scriptedDescriptor: HarnessDescriptor = {
  kind: "scripted",
  displayName: "scripted",
  idPrefix: "scripted",
  providers: ["scripted"],
  // No reference default exists for an in-process agent; the Claude figure is used.
  defaultIdleTimeoutSeconds: 180,
  // Any name, so that `-m scripted` dry-runs an agent written for another harness; its own tools are
  // Write, Edit, Delete and Bash, and a call to one the settings leave out is refused as `@blocked`.
  toolNames: "open",
  availability: () => undefined,
  selfTest: () => undefined,
  checkPrompt: (prompt) => {
    const parsed = parseScript(prompt);
    return parsed.ok ? [] : parsed.errors;
  },
  create: (_model, context) =>
    createScriptedHarness({
      clock: context.clock,
      newId: context.newId,
      ...(context.mayWrite !== undefined && { mayWrite: context.mayWrite }),
      // Sessions are logged for a later resume; an ephemeral run keeps them in memory only.
      ...(context.ephemeral !== true && { sessionFile: join(context.stateDir, "scripted-sessions.jsonl") }),
    }),
};
