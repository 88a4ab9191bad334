import { systemClock } from "../../util/clock.ts";
import { loadOnce } from "../../util/load-once.ts";
import type { Harness } from "../harness.ts";
import { createSession } from "../session-channel.ts";
import type { ResolvedScriptedOptions, ScriptedHarnessOptions } from "./scripted-options.ts";
import { createSessionStore } from "./session-store.ts";

/**
 * The agent's code (directives, file and shell steps), loaded with the first session: validation and
 * runs of other harnesses never compile it.
 */
const sessionCode = loadOnce(() => import("./run-scripted-session.ts"));

/**
 * The offline scripted agent (docs/scripted-agent.md): runs in-process, reads its prompt as a script of
 * directives, acts on the workspace for real, and can produce every outcome and stop signal. Sessions
 * (for resume and context accounting) live in this instance, and in `sessionFile` when one is given.
 * With no options it uses the system clock, random ids and sessions in memory.
 */
export function createScriptedHarness(options: ScriptedHarnessOptions = {}): Harness {
  const sessions = createSessionStore(options.sessionFile);
  const resolved: ResolvedScriptedOptions = {
    clock: options.clock ?? systemClock(),
    // The global `crypto`, not `node:crypto`: loading the module would cost every `--validate`.
    newId: options.newId ?? (() => crypto.randomUUID()),
    mayWrite: options.mayWrite ?? (() => true),
  };
  return {
    name: "scripted",
    capabilities: { resume: true, reportsCost: true, compaction: true },
    start: (request) =>
      createSession(async (emit) => {
        const { runScriptedSession } = await sessionCode();
        return runScriptedSession(request, resolved, sessions, emit);
      }),
  };
}
