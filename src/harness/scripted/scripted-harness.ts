import type { Harness } from "../harness.ts";
import { createSession } from "../session-channel.ts";
import { runScriptedSession } from "./run-scripted-session.ts";
import type { ScriptedHarnessOptions } from "./scripted-options.ts";
import { createSessionStore } from "./session-store.ts";

/**
 * The offline scripted agent (docs/scripted-agent.md): runs in-process, reads its prompt as a script of
 * directives, acts on the workspace for real, and can produce every outcome and stop signal. Sessions
 * (for resume and context accounting) live in this instance.
 */
export function createScriptedHarness(options: ScriptedHarnessOptions): Harness {
  const sessions = createSessionStore(options.sessionFile);
  return {
    name: "scripted",
    capabilities: { resume: true, reportsCost: true, compaction: true },
    start: (request) => createSession((emit) => runScriptedSession(request, options, sessions, emit)),
  };
}
