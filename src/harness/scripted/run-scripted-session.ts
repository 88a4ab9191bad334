import { ALL_COMPLETED } from "../end-reason.ts";
import type { HarnessEvent, SessionOutcome, SessionRequest } from "../harness.ts";
import { defaultUsage, usageStep } from "./context-steps.ts";
import { conditionHolds } from "./parse-condition.ts";
import { formatScriptErrors, parseScript } from "./parse-script.ts";
import { runScriptStep } from "./run-script-step.ts";
import type { ScriptStep } from "./script-step.ts";
import type { ResolvedScriptedOptions } from "./scripted-options.ts";
import {
  abortedStop,
  abortReason,
  createTurn,
  finishTurn,
  type ScriptedTurn,
  type TurnStop,
} from "./scripted-turn.ts";
import type { SessionStore } from "./session-store.ts";

const NO_TOTALS = { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, costUsd: 0 };

/**
 * One scripted session: parse the prompt, open (or resume) the session, run the steps in order until
 * one stops the turn, then report `turn.ended` and the outcome. Refusals before a session exists (a bad
 * script, an unknown session to resume, an abort before the start) produce an outcome and no events.
 */
export async function runScriptedSession(
  request: SessionRequest,
  options: ResolvedScriptedOptions,
  sessions: SessionStore,
  emit: (event: HarnessEvent) => void,
): Promise<SessionOutcome> {
  const parsed = parseScript(request.prompt);
  if (!parsed.ok) return refused(formatScriptErrors(parsed.errors));
  if (request.signal.aborted) {
    const layers = { stream: "aborted", toolBatch: "completed", turn: "aborted" } as const;
    return { kind: "aborted", reason: abortReason(request.signal), layers, totals: NO_TOTALS };
  }
  const resumeId = request.resumeSessionId;
  const session = resumeId === undefined ? sessions.create(options.newId()) : sessions.get(resumeId);
  if (session === undefined) return refused(`Session ${resumeId} not found`);
  emit({ type: "session.started", sessionId: session.id });
  const turn = createTurn(request, options, session, emit);
  const stop = await runSteps(turn, parsed.steps, parsed.hasUsage);
  sessions.save(session);
  return finishTurn(turn, stop);
}

async function runSteps(
  turn: ScriptedTurn,
  steps: readonly ScriptStep[],
  hasUsage: boolean,
): Promise<TurnStop | undefined> {
  for (const step of steps) {
    if (turn.request.signal.aborted) return abortedStop(turn);
    if (!conditionHolds(step.when, turn.request.attempt, turn.iteration)) continue;
    const stop = await runScriptStep(turn, step);
    if (stop) return stop;
  }
  if (turn.request.signal.aborted) return abortedStop(turn);
  return hasUsage ? undefined : usageStep(turn, defaultUsage(turn));
}

/** A permanent failure before any session exists. */
function refused(message: string): SessionOutcome {
  const layers = { ...ALL_COMPLETED, stream: "error", turn: "error" } as const;
  const reason = { type: "unknown", retriable: false, message } as const;
  return { kind: "failed", reason, sessionEstablished: false, layers, totals: NO_TOTALS };
}
