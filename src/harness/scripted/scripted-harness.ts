import { randomUUID } from "node:crypto";
import { systemClock } from "../../util/clock.ts";
import type { Harness } from "../harness.ts";
import { createSession } from "../session-channel.ts";
import { runScriptedSession } from "./run-scripted-session.ts";
import type { ResolvedScriptedOptions, ScriptedHarnessOptions } from "./scripted-options.ts";
import { createSessionStore } from "./session-store.ts";

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
    newId: options.newId ?? randomUUID,
    mayWrite: options.mayWrite ?? (() => true),
  };
  return {
    name: "scripted",
    capabilities: { resume: true, reportsCost: true, compaction: true },
    start: (request) => createSession((emit) => runScriptedSession(request, resolved, sessions, emit)),
  };
}
