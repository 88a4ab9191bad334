import { statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import type { HarnessEvent, SessionOutcome, SessionRequest } from "../harness.ts";
import { claudeEnv } from "./claude-env.ts";
import type { ResolvedClaudeOptions } from "./claude-options.ts";
import { resolveConfigDir } from "./config-dir.ts";
import { readCostBaseline } from "./cost-baseline.ts";
import { decideOutcome } from "./decide-outcome.ts";
import type { ClaudeSdk } from "./load-sdk.ts";
import { buildQueryOptions } from "./query-options.ts";
import { SessionRun } from "./session-run.ts";

const NO_TOTALS = { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, costUsd: 0 };

/**
 * One Claude Code session: load the SDK (first use only pays the import), prepare the config
 * directory, run `query()` until it ends, and decide the outcome. Every expected failure (SDK missing,
 * provider errors, a crash, a cancel) becomes an outcome; nothing here throws for them.
 */
export async function runClaudeSession(
  request: SessionRequest,
  options: ResolvedClaudeOptions,
  emit: (event: HarnessEvent) => void,
): Promise<SessionOutcome> {
  if (request.signal.aborted) return abortedBeforeStart(request.signal);
  const loaded = await options.loadSdk();
  if (!loaded.ok) return notStarted(loaded.message);
  const configDir = resolveConfigDir({
    request,
    configDir: options.configDir,
    fallbackConfigDir: options.fallbackConfigDir,
    isDirectory,
  });
  try {
    await mkdir(configDir, { recursive: true });
  } catch (error) {
    return notStarted(`Cannot create the Claude Code config directory ${configDir}: ${errorText(error)}`);
  }
  const baseline =
    request.resumeSessionId === undefined ? 0 : await readCostBaseline(configDir, request.resumeSessionId);
  if (request.signal.aborted) return abortedBeforeStart(request.signal);
  const run = new SessionRun(request, options.now, emit);
  await drive(loaded.sdk, request, options, configDir, run);
  const abortReason = request.signal.aborted ? abortReasonOf(request.signal) : undefined;
  const outcome = decideOutcome(run.facts(abortReason, sessionCost(run.resultCostUsd, baseline)));
  if (run.established) emit({ type: "turn.ended", reason: outcome.layers.turn });
  return outcome;
}

/** Runs the query to its end. The SDK throws after an error result and on abort; both are facts. */
async function drive(
  sdk: ClaudeSdk,
  request: SessionRequest,
  options: ResolvedClaudeOptions,
  configDir: string,
  run: SessionRun,
): Promise<void> {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(request.signal.reason);
  request.signal.addEventListener("abort", onAbort, { once: true });
  const env = claudeEnv({
    base: request.env,
    configDir,
    maxRetries: options.maxRetries,
    runningAsRoot: options.runningAsRoot,
    autoCompact: request.autoCompact,
  });
  try {
    const queryOptions = buildQueryOptions({
      request,
      env,
      hooks: run.guard.hooks,
      abortController: controller,
      onStderr: (data) => run.onStderr(data),
      executablePath: options.executablePath,
    });
    for await (const message of sdk.query({ prompt: request.prompt, options: queryOptions }))
      run.onMessage(message);
  } catch (error) {
    if (!run.hasResult) run.onThrown(error);
  } finally {
    request.signal.removeEventListener("abort", onAbort);
    run.guard.close();
  }
}

/**
 * This query's own cost. `total_cost_usd` is cumulative over a resumed session, so the total the
 * transcript recorded before the query is subtracted; null (the runtime prices the usage) when either
 * figure is unknown or they disagree.
 */
export function sessionCost(total: number | undefined, baseline: number | undefined): number | null {
  if (total === undefined || baseline === undefined || total < baseline) return null;
  return total - baseline;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function abortReasonOf(signal: AbortSignal): string {
  return signal.reason === undefined ? "aborted" : String(signal.reason);
}

function abortedBeforeStart(signal: AbortSignal): SessionOutcome {
  const layers = { stream: "aborted", toolBatch: "completed", turn: "aborted" } as const;
  return { kind: "aborted", reason: abortReasonOf(signal), layers, totals: NO_TOTALS };
}

/** A permanent failure before Claude Code started. */
function notStarted(message: string): SessionOutcome {
  const layers = { stream: "error", toolBatch: "completed", turn: "error" } as const;
  const reason = { type: "unknown", retriable: false, message } as const;
  return { kind: "failed", reason, sessionEstablished: false, layers, totals: NO_TOTALS };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
