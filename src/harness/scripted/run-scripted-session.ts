import { ALL_COMPLETED, type EndReason, worstEndReason } from "../end-reason.ts";
import type { HarnessEvent, SessionOutcome, SessionRequest } from "../harness.ts";
import { defaultUsage, usageStep } from "./context-steps.ts";
import { formatScriptErrors, parseScript } from "./parse-script.ts";
import { runScriptStep } from "./run-script-step.ts";
import type { ScriptStep } from "./script-step.ts";
import type { ResolvedScriptedOptions } from "./scripted-options.ts";
import {
  abortedStop,
  abortReason,
  createTurn,
  type ScriptedTurn,
  type TurnStop,
  turnTotals,
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
    const stop = await runScriptStep(turn, step);
    if (stop) return stop;
  }
  if (turn.request.signal.aborted) return abortedStop(turn);
  return hasUsage ? undefined : usageStep(turn, defaultUsage(turn));
}

function finishTurn(turn: ScriptedTurn, stop: TurnStop | undefined): SessionOutcome {
  const stream: EndReason = stop?.stream ?? "completed";
  // Every step before the stop completed its stream, so the turn's worst is the stop's or the tool batch's.
  const layers = { stream, toolBatch: turn.toolBatch, turn: worstEndReason(stream, turn.toolBatch) };
  turn.emit({ type: "turn.ended", reason: layers.turn });
  const base = { sessionId: turn.session.id, layers, totals: turnTotals(turn) };
  if (stop === undefined) {
    return turn.lastText === undefined
      ? { kind: "completed", ...base }
      : { kind: "completed", ...base, resultText: turn.lastText };
  }
  switch (stop.kind) {
    case "failed":
      return { kind: "failed", ...base, reason: stop.reason, sessionEstablished: true };
    case "context-exceeded":
      return { kind: "context-exceeded", ...base, via: stop.via };
    case "max-tokens":
      return { kind: "max-tokens", ...base, message: stop.message };
    case "aborted":
      return { kind: "aborted", ...base, reason: stop.reason };
  }
}

/** A permanent failure before any session exists. */
function refused(message: string): SessionOutcome {
  const layers = { ...ALL_COMPLETED, stream: "error", turn: "error" } as const;
  const reason = { type: "unknown", retriable: false, message } as const;
  return { kind: "failed", reason, sessionEstablished: false, layers, totals: NO_TOTALS };
}
