import { modelCostUsd } from "../../hank/models/index.ts";
import type { HarnessEvent, SessionOutcome, SessionRequest, UsageIncrement } from "../../harness/harness.ts";
import type { TokenUsage } from "../../journal/index.ts";
import type { TimerHandle } from "../../util/clock.ts";
import { type MeterState, meter, roundUsd } from "../budget/index.ts";
import type { BudgetExceeded } from "../budget/types.ts";
import type { Attempt, SessionLeg, SessionSetup } from "../codon/attempt.ts";
import { addTokens, NO_TOKENS } from "../codon/codon-result.ts";
import type { EngineDeps } from "../engine-types.ts";
import { fingerprintFile } from "./file-fingerprint.ts";

/** Tool results longer than this are cut in the journal (reference `toolResultTruncateLength`). */
export const TOOL_RESULT_TRUNCATE_LENGTH = 2500;

/** Why the engine itself stopped a session: never the agent's own end. */
export type StopCause = "budget" | "idle-timeout" | "cancelled";

export interface SessionRunResult {
  readonly outcome: SessionOutcome;
  readonly meter: MeterState;
  readonly exceeded?: BudgetExceeded;
  readonly stopCause?: StopCause;
  readonly sessionId?: string;
  /** Dollars of the whole execution so far (earlier extensions included). */
  readonly costUsd: number;
  /**
   * Workspace paths the agent reported changing, for the checkpoint; null when a tool with unknown
   * effects (a shell) ran, so the checkpoint must scan its globs instead.
   */
  readonly changedPaths: readonly string[] | null;
  /** The session's final text: the outcome's result text, else its last `assistant.text`. */
  readonly text?: string;
  /** Tokens of this session only: the sum of its usage increments (what the journal counted). */
  readonly tokens: TokenUsage;
}

/**
 * Runs one harness session of an attempt (one leg): streams its events into the journal, meters the
 * budget as usage arrives, and watches for silence and for the time budget. The engine stops the
 * session by aborting it and records why (`stopCause`), so a budget stop is never mistaken for the
 * agent's own end. `meter` and `costBefore` carry what earlier legs of the attempt used.
 */
export async function runSession(
  attempt: Attempt,
  setup: SessionSetup,
  leg: SessionLeg,
  meter: MeterState,
  costBefore: number,
  onSessionStarted: (sessionId: string) => void,
): Promise<SessionRunResult> {
  const request = attempt.request(setup, leg);
  const state = new SessionState(attempt, setup, request, meter, costBefore, onSessionStarted);
  const session = setup.harness.start({ ...request, signal: state.controller.signal });
  try {
    for await (const event of session) state.onEvent(event);
    const outcome = await session.outcome;
    return state.result(outcome);
  } finally {
    state.dispose();
  }
}

class SessionState {
  readonly controller = new AbortController();
  #meter: MeterState;
  #exceeded: BudgetExceeded | undefined;
  #stopCause: StopCause | undefined;
  #sessionId: string | undefined;
  #cost: number;
  readonly #changed = new Set<string>();
  #unknownChanges = false;
  #lastText: string | undefined;
  #tokens: TokenUsage = NO_TOKENS;
  #idleTimer: TimerHandle | undefined;
  /** When the session last sent an event (or started), on the engine's clock. */
  #lastEventAt: number;
  #budgetTimer: TimerHandle | undefined;
  readonly #onParentAbort = (): void => this.stop("cancelled");

  readonly #deps: EngineDeps;

  constructor(
    private readonly attempt: Attempt,
    private readonly setup: SessionSetup,
    private readonly request: Omit<SessionRequest, "signal">,
    meter: MeterState,
    private readonly costBefore: number,
    private readonly onSessionStarted: (sessionId: string) => void,
  ) {
    const deps = attempt.deps;
    this.#deps = deps;
    this.#meter = meter;
    this.#cost = costBefore;
    this.#lastEventAt = deps.clock.now();
    if (deps.signal.aborted) this.stop("cancelled");
    deps.signal.addEventListener("abort", this.#onParentAbort, { once: true });
    this.armIdle();
    this.armDurationBudget();
  }

  onEvent(event: HarnessEvent): void {
    this.#lastEventAt = this.#deps.clock.now();
    const codonId = this.request.codonId;
    const { sink } = this.#deps;
    switch (event.type) {
      case "session.started":
        this.#sessionId = event.sessionId;
        this.onSessionStarted(event.sessionId);
        return;
      case "assistant.text":
        this.#lastText = event.text;
        sink.emit("assistant.action", { codonId, action: "message", content: event.text });
        return;
      case "assistant.thinking":
        sink.emit("assistant.action", { codonId, action: "thinking", content: event.text });
        return;
      case "tool.use":
        if ((event.effects ?? "unknown") === "unknown") this.#unknownChanges = true;
        sink.emit("assistant.action", {
          codonId,
          action: "tool_use",
          content: event.toolName,
          toolName: event.toolName,
          toolInput: { ...event.input },
          toolUseId: event.toolUseId,
        });
        return;
      case "tool.result":
        sink.emit("tool.result", {
          codonId,
          toolUseId: event.toolUseId,
          toolName: event.toolName,
          result: event.result.slice(0, TOOL_RESULT_TRUNCATE_LENGTH),
          truncated: event.result.length > TOOL_RESULT_TRUNCATE_LENGTH,
          originalLength: event.result.length,
          executionTimeMs: event.executionTimeMs,
          isError: event.isError,
        });
        return;
      case "usage":
        this.onUsage(event.usage);
        return;
      case "file.changed":
        this.onFileChanged(event);
        return;
      case "compaction":
        sink.emit("info", { message: `Codon ${codonId}: the agent compacted its context` });
        return;
      case "turn.ended":
        return;
    }
  }

  private onUsage(usage: UsageIncrement): void {
    const costUsd =
      usage.costUsd ??
      (this.setup.model.pricing === null ? null : modelCostUsd(this.setup.model.pricing, usage));
    const priced: UsageIncrement = { ...usage, costUsd };
    this.#cost = roundUsd(this.#cost + (costUsd ?? 0));
    this.#tokens = addTokens(this.#tokens, usage);
    this.#deps.sink.emit("token.usage", {
      codonId: this.request.codonId,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cacheCreationTokens: usage.cacheCreationTokens,
      cacheReadTokens: usage.cacheReadTokens,
      totalCost: this.#cost,
      modelId: this.request.model.id,
    });
    this.applyMeter({ usage: priced, elapsedSeconds: this.elapsedSeconds() });
  }

  private onFileChanged(event: Extract<HarnessEvent, { type: "file.changed" }>): void {
    this.#changed.add(event.path);
    const print = fingerprintFile(this.request.cwd, event.path, event.action === "deleted");
    this.#deps.sink.emit("file.updated", {
      path: event.path,
      filename: print.filename,
      action: event.action,
      ...(print.sha256 !== undefined && { sha256: print.sha256 }),
      ...(print.bytes !== undefined && { bytes: print.bytes }),
      source:
        event.toolUseId === undefined
          ? { kind: "codon-start" }
          : { kind: "tool_use", toolUseId: event.toolUseId },
    });
  }

  private applyMeter(reading: Parameters<typeof meter>[1]): void {
    const result = meter(this.#meter, reading);
    this.#meter = result.state;
    if (result.exceeded !== undefined && this.#exceeded === undefined) {
      this.#exceeded = result.exceeded;
      this.stop("budget");
    }
  }

  private elapsedSeconds(): number {
    return (this.#deps.clock.now() - this.attempt.startMs) / 1000;
  }

  /**
   * The idle watchdog: one timer for the whole session, not one per event. An event only records when
   * it came; when the timer fires, the session is stopped if it has been silent for the whole idle
   * timeout, and the timer is set again for the rest of it otherwise. A session that streams thousands
   * of events pays a clock read for each instead of a timer.
   */
  private armIdle(delayMs = this.setup.idleTimeoutMs): void {
    this.#idleTimer = this.#deps.clock.setTimeout(() => {
      const silentMs = this.#deps.clock.now() - this.#lastEventAt;
      if (silentMs >= this.setup.idleTimeoutMs) this.stop("idle-timeout");
      else this.armIdle(this.setup.idleTimeoutMs - silentMs);
    }, delayMs);
  }

  /** One timer at the moment the duration limit is reached; usage events check it too. */
  private armDurationBudget(): void {
    const duration = this.#meter.limits.duration;
    if (duration === undefined) return;
    const remainingMs = Math.max(0, duration.limit * 1000 - (this.#deps.clock.now() - this.attempt.startMs));
    this.#budgetTimer = this.#deps.clock.setTimeout(
      () => this.applyMeter({ elapsedSeconds: this.elapsedSeconds() }),
      remainingMs,
    );
  }

  stop(cause: StopCause): void {
    if (this.#stopCause !== undefined) return;
    this.#stopCause = cause;
    this.controller.abort(cause);
  }

  result(outcome: SessionOutcome): SessionRunResult {
    this.finalReading();
    const sessionId = this.#sessionId ?? outcome.sessionId;
    const text = (outcome.kind === "completed" ? outcome.resultText : undefined) ?? this.#lastText;
    return {
      outcome,
      meter: this.#meter,
      ...(this.#exceeded !== undefined && { exceeded: this.#exceeded }),
      ...(this.#stopCause !== undefined && { stopCause: this.#stopCause }),
      ...(sessionId !== undefined && { sessionId }),
      costUsd: this.finalCost(outcome),
      changedPaths: this.#unknownChanges ? null : [...this.#changed],
      ...(text !== undefined && { text }),
      tokens: this.#tokens,
    };
  }

  /**
   * The last elapsed-time reading, taken after the session ended. A limit it reaches is recorded but
   * stopped nothing, so it sets no stop cause: the session keeps its own end (completed, failed...).
   */
  private finalReading(): void {
    const result = meter(this.#meter, { elapsedSeconds: this.elapsedSeconds() });
    this.#meter = result.state;
    if (result.exceeded !== undefined && this.#exceeded === undefined) this.#exceeded = result.exceeded;
  }

  /** The harness's authoritative total wins over the sum of increments when it reports one. */
  private finalCost(outcome: SessionOutcome): number {
    const reported = outcome.totals.costUsd;
    return reported === null ? this.#cost : roundUsd(this.costBefore + reported);
  }

  dispose(): void {
    const { clock, signal } = this.#deps;
    if (this.#idleTimer !== undefined) clock.clearTimeout(this.#idleTimer);
    if (this.#budgetTimer !== undefined) clock.clearTimeout(this.#budgetTimer);
    signal.removeEventListener("abort", this.#onParentAbort);
  }
}
