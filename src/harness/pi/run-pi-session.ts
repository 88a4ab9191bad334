import type { AssistantMessage } from "@mariozechner/pi-ai";
import type { AgentSession } from "@mariozechner/pi-coding-agent";
import type { ResolvedModel } from "../../hank/models/index.ts";
import { isContextOverflow } from "../classify-failure.ts";
import { ALL_COMPLETED } from "../end-reason.ts";
import type { HarnessEvent, SessionOutcome, SessionRequest } from "../harness.ts";
import { openPiSession } from "./open-pi-session.ts";
import { PiEventMapper } from "./pi-event-mapper.ts";
import type { PiClock, PiHarnessOptions } from "./pi-options.ts";
import { decidePiOutcome } from "./pi-outcome.ts";
import type { PiSdk, PiSdkLoad } from "./pi-sdk.ts";
import { type PreparedPiSession, preparePiSession } from "./prepare-pi-session.ts";
import { installTruncationGuard } from "./truncation-guard.ts";

/** What every session of one harness instance shares. */
export interface PiSessionContext {
  readonly options: PiHarnessOptions;
  readonly loadSdk: () => Promise<PiSdkLoad>;
  readonly clock: PiClock;
  readonly resolveModel: (requested: string) => ResolvedModel | undefined;
}

type Emit = (event: HarnessEvent) => void;

const NO_TOTALS = { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, costUsd: 0 };

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The outcome reason of a cancel: the signal's reason as text, or "aborted" when it has none. */
function abortReason(signal: AbortSignal): string {
  return signal.reason === undefined ? "aborted" : String(signal.reason);
}

/** A permanent failure before any session exists (SDK missing, no credentials, unknown session). */
function refused(message: string): SessionOutcome {
  const layers = { ...ALL_COMPLETED, stream: "error", turn: "error" } as const;
  const reason = { type: "unknown", retriable: false, message } as const;
  return { kind: "failed", reason, sessionEstablished: false, layers, totals: NO_TOTALS };
}

function abortedBeforeStart(signal: AbortSignal, sessionId?: string): SessionOutcome {
  const layers = { stream: "aborted", toolBatch: "completed", turn: "aborted" } as const;
  const base = { kind: "aborted", reason: abortReason(signal), layers, totals: NO_TOTALS } as const;
  return sessionId === undefined ? base : { ...base, sessionId };
}

/**
 * One pi session: load the SDK, prepare model, credentials and session file, create the agent
 * session, send the prompt, and decide the outcome. Refusals before the session exists produce an
 * outcome and no events; afterwards `session.started` comes first.
 */
export async function runPiSession(
  request: SessionRequest,
  context: PiSessionContext,
  emit: Emit,
): Promise<SessionOutcome> {
  const loaded = await context.loadSdk();
  if (!loaded.ok) return refused(loaded.message);
  if (request.signal.aborted) return abortedBeforeStart(request.signal);
  const resolved = context.resolveModel(request.model.requested);
  const preparation = preparePiSession(request, context.options, resolved, loaded.sdk);
  if (!preparation.ok) return refused(preparation.message);
  let session: AgentSession;
  try {
    session = await openPiSession(loaded.sdk, request, preparation.prepared, context.options);
  } catch (error) {
    return refused(`pi could not start a session: ${errorText(error)}`);
  }
  try {
    emit({ type: "session.started", sessionId: session.sessionId });
    return await promptSession(session, request, context, {
      emit,
      sdk: loaded.sdk,
      prepared: preparation.prepared,
    });
  } finally {
    session.dispose();
  }
}

interface Running {
  readonly emit: Emit;
  readonly sdk: PiSdk;
  readonly prepared: PreparedPiSession;
}

async function promptSession(
  session: AgentSession,
  request: SessionRequest,
  context: PiSessionContext,
  running: Running,
): Promise<SessionOutcome> {
  const { signal } = request;
  const { prepared } = running;
  const mapper = new PiEventMapper({
    emit: running.emit,
    clock: context.clock,
    cwd: request.cwd,
    priced: prepared.priced,
    signal,
  });
  installTruncationGuard(session.agent, mapper.beforeRun);
  const unsubscribe = session.subscribe(mapper.handle);
  const onAbort = (): void => {
    session.abortCompaction();
    void session.abort();
  };
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    if (signal.aborted) return abortedBeforeStart(signal, session.sessionId);
    const refusal = await sendPrompt(session, request.prompt);
    // prompt() can settle before pi delivered its last events; agent_end is the last of them.
    if (refusal === undefined) await mapper.agentEnded;
    const mapped = mapper.result();
    const overflow = isOverflow(mapped.lastAssistant, prepared.model.contextWindow, running.sdk);
    const compacted =
      overflow && request.autoCompact && !signal.aborted && (await compactAtOverflow(session, running.emit));
    return decidePiOutcome({
      sessionId: session.sessionId,
      mapped,
      abortReason: signal.aborted ? abortReason(signal) : undefined,
      refusal,
      overflow,
      compacted,
      maxTokens: prepared.model.maxTokens,
    });
  } finally {
    signal.removeEventListener("abort", onAbort);
    unsubscribe();
  }
}

/**
 * Sends the prompt as plain text (no `/template` expansion). Provider failures do not throw: they end
 * in an assistant message with `stopReason: "error"`. A throw is pi refusing before the agent ran.
 */
async function sendPrompt(session: AgentSession, prompt: string): Promise<string | undefined> {
  try {
    await session.prompt(prompt, { expandPromptTemplates: false });
    return undefined;
  } catch (error) {
    return errorText(error);
  }
}

/** Our overflow phrases, then pi's own per-provider patterns (llama.cpp, LM Studio, Groq, …). */
function isOverflow(last: AssistantMessage | undefined, contextWindow: number, sdk: PiSdk): boolean {
  if (last === undefined || last.stopReason !== "error") return false;
  return isContextOverflow(last.errorMessage ?? "") || sdk.ai.isContextOverflow(last, contextWindow);
}

/**
 * autoCompact: the provider rejected the request as too long, so pi summarizes the session (one
 * request to the same model) and the session ends at that boundary, `context-exceeded` via compaction;
 * a later session resuming it continues on the compacted history. A compaction that fails leaves the
 * plain overflow. pi 0.73 does not report the tokens of the summarizing request.
 */
async function compactAtOverflow(session: AgentSession, emit: Emit): Promise<boolean> {
  try {
    const result = await session.compact();
    emit({ type: "compaction", preTokens: result.tokensBefore });
    return true;
  } catch {
    return false;
  }
}
