import type { Harness } from "../harness/harness.ts";
import type { ResolvedModel } from "../spec/models/index.ts";
import type { PromptMetadata } from "../spec/prompt.ts";
import { DEFAULT_MAX_EXTENSIONS } from "../spec/schema/index.ts";
import type { AttemptContext } from "./attempt-types.ts";
import type { MeterState } from "./budget/index.ts";
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

/** The last session of an attempt, and how many exhaustWithPrompt extensions ran before it ended. */
export interface SessionsResult {
  readonly last: SessionRunResult;
  readonly extensions: number;
  /** The agent reported a session id (the attempt reached `running`). */
  readonly started: boolean;
  readonly idleTimeoutMs: number;
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
  }
  return { last: result, extensions: extension, started, idleTimeoutMs: input.idleTimeoutMs };
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
