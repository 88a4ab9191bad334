import type { EndReason, LayerEndReasons } from "./end-reason.ts";
import type { FailureReason } from "./failure-reason.ts";

/**
 * The harness contract: how the engine runs one agent session for one codon attempt, without knowing
 * which agent it talks to. Adapters (scripted/, command/, claude/, pi/) implement it; the engine reads
 * only `capabilities`, never the adapter's identity.
 */

/** What the engine may rely on. Declared by each adapter. */
export interface HarnessCapabilities {
  /** `continue-previous` can resume a session by id. */
  readonly resume: boolean;
  /** Cost figures come from the provider or SDK; when false, cost is "not reported", never estimated. */
  readonly reportsCost: boolean;
  /** The agent can compact its context and report the boundary (`autoCompact`). */
  readonly compaction: boolean;
}

/** The model a session runs, as resolved from the catalog. */
export interface SessionModel {
  /** The id the user wrote (`haiku`, `scripted/fail`). */
  readonly requested: string;
  /** Canonical id (`claude-haiku-4-5`). */
  readonly id: string;
  readonly provider: string;
  readonly contextWindow?: number;
  readonly maxOutputTokens?: number;
}

/**
 * Which tools the agent may use, by the names its harness gives them (Claude Code: `Read`, `Bash`...;
 * pi: `read`, `bash`, `edit`, `write`; the scripted agent: `Write`, `Edit`, `Delete`, `Bash`).
 * `allow` is the complete set the agent gets (empty: no tools); `deny` removes tools, also from
 * `allow`. A harness that cannot restrict its agent's tools refuses a session that carries settings,
 * rather than run the agent with more than it was given.
 */
export interface ToolSettings {
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
}

/** Whether `settings` let the agent use `toolName` (no settings: every tool). */
export function toolPermitted(settings: ToolSettings | undefined, toolName: string): boolean {
  if (settings === undefined) return true;
  if (settings.deny?.includes(toolName) === true) return false;
  return settings.allow === undefined || settings.allow.includes(toolName);
}

export interface SessionRequest {
  /** Runtime id of the codon (`edit#2`). */
  readonly codonId: string;
  readonly prompt: string;
  /** Full system prompt addition: global system prompt, then the codon's appended one. */
  readonly systemPrompt?: string;
  readonly model: SessionModel;
  /** Working directory of the agent (agentRoot). */
  readonly cwd: string;
  /** The complete environment of the agent. */
  readonly env: Readonly<Record<string, string>>;
  /** Resume this session (continue-previous, or an exhaustWithPrompt extension). */
  readonly resumeSessionId?: string;
  readonly autoCompact: boolean;
  /** 1-based attempt number of this codon (retries increment it). */
  readonly attempt: number;
  /** 0 for the codon's own prompt, n for the n-th exhaustWithPrompt extension. */
  readonly extension: number;
  /** Cancels the session; the outcome is then `aborted` with the signal's reason. */
  readonly signal: AbortSignal;
  /** Restricts the agent's tools (a library agent's `tools`); absent: the harness's own tool set. */
  readonly tools?: ToolSettings;
}

/** Token counts of one model response (an increment, not a running total). */
export interface UsageIncrement {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheCreationTokens: number;
  readonly cacheReadTokens: number;
  /** Dollars for this response, or null when the harness cannot report it. */
  readonly costUsd: number | null;
}

export type ToolEffects = "none" | "reported-files" | "unknown";

/** Normalized events, streamed while the session runs. */
export type HarnessEvent =
  | { readonly type: "session.started"; readonly sessionId: string }
  | { readonly type: "assistant.text"; readonly text: string }
  | { readonly type: "assistant.thinking"; readonly text: string }
  | {
      readonly type: "tool.use";
      readonly toolUseId: string;
      readonly toolName: string;
      readonly input: Readonly<Record<string, unknown>>;
      /**
       * What the call may change in the workspace: nothing, only files it reports with `file.changed`,
       * or anything (a shell). Absent means `unknown`; checkpoints then scan instead of trusting reports.
       */
      readonly effects?: ToolEffects;
    }
  | {
      readonly type: "tool.result";
      readonly toolUseId: string;
      readonly toolName: string;
      readonly result: string;
      readonly isError: boolean;
      readonly executionTimeMs: number;
    }
  | { readonly type: "usage"; readonly usage: UsageIncrement }
  | {
      readonly type: "file.changed";
      readonly path: string;
      readonly action: "created" | "modified" | "deleted";
      readonly toolUseId?: string;
    }
  | { readonly type: "compaction"; readonly preTokens?: number }
  | { readonly type: "turn.ended"; readonly reason: EndReason };

/** Totals over the whole session. */
export interface SessionTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheCreationTokens: number;
  readonly cacheReadTokens: number;
  /** Authoritative final cost when known (e.g. an SDK's total); null when not reported. */
  readonly costUsd: number | null;
}

/** How the agent's own process ended: an exit code, or the signal that ended it. */
export interface AgentProcessExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

interface OutcomeBase {
  readonly sessionId?: string;
  readonly layers: LayerEndReasons;
  readonly totals: SessionTotals;
  /**
   * How the agent's process ended, on the outcome of a session the engine aborted, from harnesses
   * that run the agent as a process of their own (the command harness). Absent when no such process
   * existed (an in-process SDK session, the scripted agent): the codon's `exitStatus` then never
   * claims a process was killed.
   */
  readonly process?: AgentProcessExit;
}

/** How a session ended. Expected failures are values, never throws. */
export type SessionOutcome =
  | (OutcomeBase & { readonly kind: "completed"; readonly resultText?: string })
  | (OutcomeBase & {
      readonly kind: "failed";
      readonly reason: FailureReason;
      readonly sessionEstablished: boolean;
    })
  | (OutcomeBase & { readonly kind: "context-exceeded"; readonly via: "overflow" | "compaction" })
  | (OutcomeBase & { readonly kind: "max-tokens"; readonly message: string })
  | (OutcomeBase & { readonly kind: "aborted"; readonly reason: string });

/** A running session: iterate its events, then read its outcome. */
export interface HarnessSession extends AsyncIterable<HarnessEvent> {
  /** Settles once the session has ended and its last event was delivered. */
  readonly outcome: Promise<SessionOutcome>;
}

export interface Harness {
  /** A name for logs only; the engine never branches on it. */
  readonly name: string;
  readonly capabilities: HarnessCapabilities;
  /**
   * Seconds of agent silence after which the engine stops a session when neither the codon, the hank
   * nor the command line sets a timeout. The registry fills it in from the harness's descriptor.
   */
  readonly defaultIdleTimeoutSeconds?: number;
  start(request: SessionRequest): HarnessSession;
}

/** Chooses the harness for a model. Composed at the edge (CLI, library), passed to the engine. */
export interface HarnessRegistry {
  forModel(model: SessionModel): Harness;
}
