import type { PromptMetadata } from "../../hank/prompt.ts";
import { DEFAULT_MAX_EXTENSIONS } from "../../hank/schema/index.ts";
import type { TokenUsage } from "../../journal/index.ts";
import type { MeterState } from "../budget/index.ts";
import type { Attempt, SessionLeg, SessionSetup } from "../codon/attempt.ts";
import { addTokens } from "../codon/codon-result.ts";
import { runSession, type SessionRunResult } from "./session-runner.ts";

/**
 * The last session of an attempt, how many exhaustWithPrompt extensions ran before it ended, and what
 * all of the attempt's sessions produced together.
 */
export interface SessionsResult {
  readonly last: SessionRunResult;
  readonly extensions: number;
  /** The agent reported a session id (the attempt reached `running`). */
  readonly started: boolean;
  readonly idleTimeoutMs: number;
  /** The attempt's final text: the last session's, else the latest one an earlier session had. */
  readonly text: string | undefined;
  /** Tokens of every session of the attempt. */
  readonly tokens: TokenUsage;
  /**
   * Paths changed by any session of the attempt, for the checkpoint's hint (a path missing from the
   * hint would not be committed at this codon); null when any session ran a tool of unknown effects.
   */
  readonly changedPaths: readonly string[] | null;
}

/**
 * Runs the codon's session, then, with `exhaustWithPrompt`, resumes it with that prompt after every
 * success until something other than a plain completion ends it or `maxExtensions` is reached.
 * The budget meter and the cost carry across extensions: they are one codon execution.
 */
export async function runSessions(
  attempt: Attempt,
  setup: SessionSetup,
  meter: MeterState,
): Promise<SessionsResult> {
  const { codon } = attempt;
  const maxExtensions = codon.maxExtensions ?? DEFAULT_MAX_EXTENSIONS;
  let started = false;
  const first: SessionLeg = {
    extension: 0,
    prompt: setup.prompt,
    resumeSessionId: attempt.resumedSessionId(),
  };
  let result = await runSession(attempt, setup, first, meter, 0, (sessionId) => {
    started = true;
    emitStarted(attempt, setup, first, sessionId);
  });
  const all = [result];
  let extension = 0;
  while (shouldExtend(attempt, result, extension, maxExtensions)) {
    extension += 1;
    emitExtended(attempt, extension, result);
    const leg: SessionLeg = {
      extension,
      prompt: codon.exhaustWithPrompt ?? "",
      resumeSessionId: result.sessionId,
    };
    result = await runSession(attempt, setup, leg, result.meter, result.costUsd, () => undefined);
    all.push(result);
  }
  return {
    last: result,
    extensions: extension,
    started,
    idleTimeoutMs: setup.idleTimeoutMs,
    text: all.findLast((session) => session.text !== undefined)?.text,
    tokens: all.map((session) => session.tokens).reduce(addTokens),
    changedPaths: unionOfChanges(all),
  };
}

function unionOfChanges(sessions: readonly SessionRunResult[]): readonly string[] | null {
  const paths = new Set<string>();
  for (const session of sessions) {
    if (session.changedPaths === null) return null;
    for (const path of session.changedPaths) paths.add(path);
  }
  return [...paths];
}

function shouldExtend(attempt: Attempt, result: SessionRunResult, done: number, max: number): boolean {
  return (
    attempt.codon.exhaustWithPrompt !== undefined &&
    result.outcome.kind === "completed" &&
    result.stopCause === undefined &&
    result.sessionId !== undefined &&
    done < max
  );
}

function emitExtended(attempt: Attempt, extension: number, previous: SessionRunResult): void {
  const { sink } = attempt.deps;
  const codon = sink.codon(attempt.entry.runtimeId);
  sink.emit("codon.extended", {
    codonId: attempt.entry.runtimeId,
    codonName: attempt.codon.name,
    extensionNumber: extension,
    exhaustWithPrompt: attempt.codon.exhaustWithPrompt ?? "",
    cumulativeTokens: {
      inputTokens: codon?.tokens.input ?? 0,
      outputTokens: codon?.tokens.output ?? 0,
      cacheCreationTokens: codon?.tokens.cacheCreation ?? 0,
      cacheReadTokens: codon?.tokens.cacheRead ?? 0,
    },
    cumulativeCost: previous.costUsd,
  });
}

/** The first leg's session reported its id: the codon has started (status `running`). */
function emitStarted(attempt: Attempt, setup: SessionSetup, leg: SessionLeg, sessionId: string): void {
  const { codon, deps } = attempt;
  deps.sink.emit("codon.started", {
    codonId: attempt.entry.runtimeId,
    codonName: codon.name,
    ...(codon.description !== undefined && { codonDescription: codon.description }),
    sessionId,
    ...(leg.resumeSessionId !== undefined && { previousSessionId: leg.resumeSessionId }),
    startTime: new Date(deps.clock.now()).toISOString(),
    ...(setup.promptMetadata !== undefined && { promptMetadata: metadataOf(setup.promptMetadata) }),
    attempt: attempt.attempt,
  });
  attempt.status("running");
}

interface StartedMetadata {
  name?: string;
  description?: string;
  tags?: string[];
  version?: string;
  author?: string;
}

function metadataOf(meta: PromptMetadata): StartedMetadata {
  const { name, description, tags, version, author } = meta;
  return {
    ...(name !== undefined && { name }),
    ...(description !== undefined && { description }),
    ...(tags !== undefined && { tags: [...tags] }),
    ...(version !== undefined && { version }),
    ...(author !== undefined && { author }),
  };
}
