import {
  classifyFailureText,
  classifyStructured,
  exitWithoutResult,
  isContextOverflow,
} from "../classify-failure.ts";
import { type EndReason, type LayerEndReasons, worstEndReason } from "../end-reason.ts";
import type { FailureReason } from "../failure-reason.ts";
import type { SessionOutcome, SessionTotals } from "../harness.ts";
import { type AgentVerdict, NO_USAGE } from "./output-parser.ts";

/** How the agent process ended. */
export interface ProcessExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Why the process never ran. */
  readonly spawnError?: string;
}

/** Everything the outcome is decided from; gathered after the process has ended. */
export interface OutcomeFacts {
  readonly exit: ProcessExit;
  /** The abort reason, when the session was aborted before the process ended by itself. */
  readonly abortReason?: string;
  readonly sessionId: string | undefined;
  /** A session exists: the agent named one, or (plain text) it was given one or printed something. */
  readonly sessionEstablished: boolean;
  readonly verdict: AgentVerdict | undefined;
  /** False for plain text output, where exit code 0 means completed. */
  readonly reportsResult: boolean;
  readonly text: string;
  readonly totals: SessionTotals;
  readonly streams: { readonly last: EndReason | undefined; readonly worst: EndReason };
  readonly pendingTools: number;
  /** The end of the agent's stderr. */
  readonly stderrTail: string;
}

function layers(stream: EndReason, toolBatch: EndReason, worst: EndReason): LayerEndReasons {
  return { stream, toolBatch, turn: worstEndReason(worstEndReason(worst, stream), toolBatch) };
}

/** How the exit reads in a message: `exit code 1`, `signal SIGKILL`. */
function exitText(exit: ProcessExit): string {
  if (exit.exitCode !== null) return `exit code ${exit.exitCode}`;
  return exit.signal === null ? "no exit code" : `signal ${exit.signal}`;
}

/** The failure of a process that ended without a verdict: its stderr when it said something, else its exit. */
function exitFailure(facts: OutcomeFacts): FailureReason {
  const said = facts.stderrTail.trim();
  if (said === "") {
    return exitWithoutResult(facts.exit.exitCode, facts.sessionEstablished, facts.exit.signal ?? undefined);
  }
  const reason = classifyFailureText(said, facts.sessionEstablished);
  return { ...reason, message: `${reason.message} (${exitText(facts.exit)})` };
}

function fromVerdict(facts: OutcomeFacts, verdict: AgentVerdict, base: OutcomeBase): SessionOutcome {
  const { worst, last } = facts.streams;
  switch (verdict.kind) {
    case "completed": {
      const done = { ...base, layers: layers(last ?? "completed", "completed", worst) };
      return verdict.resultText === undefined
        ? { kind: "completed", ...done }
        : { kind: "completed", ...done, resultText: verdict.resultText };
    }
    case "max-tokens":
      return {
        kind: "max-tokens",
        ...base,
        layers: layers("max-tokens", "completed", worst),
        message: verdict.message,
      };
    case "error": {
      const failedLayers = layers("error", facts.pendingTools > 0 ? "error" : "completed", worst);
      if (verdict.overflow)
        return { kind: "context-exceeded", ...base, layers: failedLayers, via: "overflow" };
      const reason = classifyStructured(verdict.failure, facts.sessionEstablished);
      return {
        kind: "failed",
        ...base,
        layers: failedLayers,
        reason,
        sessionEstablished: facts.sessionEstablished,
      };
    }
  }
}

interface OutcomeBase {
  readonly sessionId?: string;
  readonly totals: SessionTotals;
}

/**
 * Decides how a command session ended. Order: the process never started; we aborted it; the agent's
 * own verdict; plain text output that exited 0; otherwise a failure read from stderr or the exit.
 * Pure: the outcome depends only on the facts.
 */
export function decideOutcome(facts: OutcomeFacts): SessionOutcome {
  const base: OutcomeBase =
    facts.sessionId === undefined
      ? { totals: facts.totals }
      : { sessionId: facts.sessionId, totals: facts.totals };
  const { worst } = facts.streams;
  if (facts.exit.spawnError !== undefined) {
    const reason = classifyFailureText(`Could not start the agent command: ${facts.exit.spawnError}`, false);
    const failedLayers = layers("error", "completed", "error");
    return { kind: "failed", totals: NO_USAGE, layers: failedLayers, reason, sessionEstablished: false };
  }
  if (facts.abortReason !== undefined) {
    const aborted = layers("aborted", facts.pendingTools > 0 ? "aborted" : "completed", worst);
    const process = { exitCode: facts.exit.exitCode, signal: facts.exit.signal };
    return { kind: "aborted", ...base, layers: aborted, reason: facts.abortReason, process };
  }
  if (facts.verdict !== undefined) return fromVerdict(facts, facts.verdict, base);
  if (!facts.reportsResult && facts.exit.exitCode === 0) {
    const done = { ...base, layers: layers("completed", "completed", worst) };
    return facts.text === ""
      ? { kind: "completed", ...done }
      : { kind: "completed", ...done, resultText: facts.text };
  }
  const failedLayers = layers("error", facts.pendingTools > 0 ? "error" : "completed", worst);
  if (isContextOverflow(facts.stderrTail))
    return { kind: "context-exceeded", ...base, layers: failedLayers, via: "overflow" };
  return {
    kind: "failed",
    ...base,
    layers: failedLayers,
    reason: exitFailure(facts),
    sessionEstablished: facts.sessionEstablished,
  };
}
