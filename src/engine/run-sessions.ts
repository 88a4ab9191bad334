import type { ResolvedModel } from "../hank/models/index.ts";
import type { PromptMetadata } from "../hank/prompt.ts";
import { DEFAULT_MAX_EXTENSIONS } from "../hank/schema/index.ts";
import type { Harness } from "../harness/harness.ts";
import type { TokenUsage } from "../journal/index.ts";
import type { AttemptContext } from "./attempt-types.ts";
import type { MeterState } from "./budget/index.ts";
import { addTokens } from "./codon-result.ts";
import { sessionModelOf } from "./session-model.ts";
import { runSession, type SessionRunResult } from "./session-runner.ts";

export interface SessionsInput {
  readonly ctx: AttemptContext;
  readonly harness: Harness;
  readonly model: ResolvedModel;
  readonly prompt: string;
  readonly systemPrompt?: string;
  readonly promptMetadata?: PromptMetadata;
  readonly env: Readonly<Record<string, string>>;
  readonly idleTimeoutMs: number;
  readonly meter: MeterState;
  readonly startMs: number;
}

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
export async function runSessions(input: SessionsInput): Promise<SessionsResult> {
  const { ctx } = input;
  const maxExtensions = ctx.codon.maxExtensions ?? DEFAULT_MAX_EXTENSIONS;
  let started = false;
  let result = await runOne(input, 0, input.prompt, resumeOf(ctx), input.meter, 0, () => {
    started = true;
  });
  const all = [result];
  let extension = 0;
  while (shouldExtend(ctx, result, extension, maxExtensions)) {
    extension += 1;
    emitExtended(input, extension, result);
    result = await runOne(
      input,
      extension,
      ctx.codon.exhaustWithPrompt ?? "",
      result.sessionId,
      result.meter,
      result.costUsd,
      () => undefined,
    );
    all.push(result);
  }
  return {
    last: result,
    extensions: extension,
    started,
    idleTimeoutMs: input.idleTimeoutMs,
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

function resumeOf(ctx: AttemptContext): string | undefined {
  return ctx.resume !== undefined && "sessionId" in ctx.resume ? ctx.resume.sessionId : undefined;
}

function shouldExtend(ctx: AttemptContext, result: SessionRunResult, done: number, max: number): boolean {
  return (
    ctx.codon.exhaustWithPrompt !== undefined &&
    result.outcome.kind === "completed" &&
    result.stopCause === undefined &&
    result.sessionId !== undefined &&
    done < max
  );
}

function emitExtended(input: SessionsInput, extension: number, previous: SessionRunResult): void {
  const { ctx } = input;
  const codon = ctx.deps.sink.codon(ctx.entry.runtimeId);
  ctx.deps.sink.emit("codon.extended", {
    codonId: ctx.entry.runtimeId,
    codonName: ctx.codon.name,
    extensionNumber: extension,
    exhaustWithPrompt: ctx.codon.exhaustWithPrompt ?? "",
    cumulativeTokens: {
      inputTokens: codon?.tokens.input ?? 0,
      outputTokens: codon?.tokens.output ?? 0,
      cacheCreationTokens: codon?.tokens.cacheCreation ?? 0,
      cacheReadTokens: codon?.tokens.cacheRead ?? 0,
    },
    cumulativeCost: previous.costUsd,
  });
}

async function runOne(
  input: SessionsInput,
  extension: number,
  prompt: string,
  resumeSessionId: string | undefined,
  meter: MeterState,
  costBefore: number,
  onStarted: () => void,
): Promise<SessionRunResult> {
  const { ctx } = input;
  const tools = ctx.input.codonTools?.get(ctx.entry.configId);
  return runSession(
    {
      harness: input.harness,
      request: {
        codonId: ctx.entry.runtimeId,
        prompt,
        ...(input.systemPrompt !== undefined && { systemPrompt: input.systemPrompt }),
        model: sessionModelOf(input.model),
        cwd: ctx.input.agentRoot,
        env: input.env,
        ...(resumeSessionId !== undefined && { resumeSessionId }),
        autoCompact: ctx.codon.autoCompact ?? false,
        attempt: ctx.attempt,
        extension,
        ...(tools !== undefined && { tools }),
      },
      pricing: input.model.pricing,
      idleTimeoutMs: input.idleTimeoutMs,
      meter,
      executionStartMs: input.startMs,
      costBefore,
      onSessionStarted: (sessionId) => {
        if (extension > 0) return;
        onStarted();
        ctx.deps.sink.emit("codon.started", {
          codonId: ctx.entry.runtimeId,
          codonName: ctx.codon.name,
          ...(ctx.codon.description !== undefined && { codonDescription: ctx.codon.description }),
          sessionId,
          ...(resumeSessionId !== undefined && { previousSessionId: resumeSessionId }),
          startTime: new Date(ctx.deps.clock.now()).toISOString(),
          ...(input.promptMetadata !== undefined && { promptMetadata: metadataOf(input.promptMetadata) }),
          attempt: ctx.attempt,
        });
        ctx.transitions.codon(ctx.entry.runtimeId, "running");
      },
    },
    { sink: ctx.deps.sink, clock: ctx.deps.clock, signal: ctx.deps.signal },
  );
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
