import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { RefusalCode } from "../../events/refusals.ts";
import { totalTokens } from "../../events/token-usage.ts";
import { loadRunState, type RunState } from "../../journal/index.ts";
import type { EventListener, ExecutionResult } from "../../runner/index.ts";
import { startExecution } from "../../runner/index.ts";
import type { Clock } from "../../util/clock.ts";
import { executionLayout } from "../../workspace/execution-layout.ts";
import type { PinnedContract } from "../model/contract.ts";
import type { BodyEnd } from "../model/generation-facts.ts";
import type { CodonLayers } from "../store/store-records.ts";

const exec = promisify(execFile);

/**
 * One generation's body: a run of the pinned hank through the runner, on the run's one execution, so
 * the workspace carries over. A new generation is a new run from the first codon (`newRun`); a
 * generation interrupted by a crash is resumed (the runner restarts the interrupted codon from its
 * starting checkpoint). Body run ids are `g<n>-...`, which is how a resume tells the two apart.
 */
export interface BodyRequest {
  readonly contract: PinnedContract;
  readonly runDir: string;
  readonly generation: number;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  readonly newId: () => string;
  /**
   * Asked as usage arrives, with this generation's tokens so far: true when a budget is exceeded, and
   * then nothing new starts (the run is told to stop at its next codon boundary).
   */
  readonly overBudget?: (tokens: number) => boolean;
  /** Told when a codon (attempt) starts and ends: the inactivity clock's nodes. */
  readonly activity?: NodeActivity;
  /** For a sandboxed body (which runs in its own process): the tokens it may spend; absent: no budget. */
  readonly tokenAllowance?: number | null;
}

export interface NodeActivity {
  started(): void;
  ended(): void;
}

export interface BodyReport {
  readonly end: BodyEnd;
  readonly layers: readonly CodonLayers[];
  readonly tokens: number;
  readonly costUsd: number;
  readonly bodyRunId: string | null;
  readonly workspaceTree: string | null;
  readonly resumed: boolean;
}

export function executionDirOf(runDir: string): string {
  return join(runDir, "execution");
}

export function workspaceOf(runDir: string): string {
  return executionLayout(executionDirOf(runDir)).agentRoot;
}

export async function runBody(request: BodyRequest): Promise<BodyReport> {
  const layout = executionLayout(executionDirOf(request.runDir));
  const prefix = `g${request.generation}-`;
  const before = existsSync(layout.stateDir)
    ? (await loadRunState(layout.stateDir, { journalPath: layout.eventsPath })).state
    : null;
  const resumed = before?.runs.at(-1)?.id.startsWith(prefix) === true;
  const baseline = before === null ? 0 : totalTokens(before.totals);
  let stopSent = false;
  // The runner's setup (workspace, checkpoints) counts as the first codon's node: it is work under way.
  let setupOpen = true;
  request.activity?.started();
  // Every attempt's layers as it ends, the one a crash interrupted included (recovery journals it
  // through the same listeners before the codon restarts): the run state keeps only the last.
  const attempts: CodonLayers[] = [];
  const listener: EventListener = (event, state) => {
    if (event.type === "codon.completed" && event.data.endReasons !== undefined)
      attempts.push({
        codonId: event.data.codonId,
        ...(event.data.attempt !== undefined && { attempt: event.data.attempt }),
        ...event.data.endReasons,
      });
    if (event.type === "codon.started") {
      if (setupOpen) setupOpen = false;
      else request.activity?.started();
    }
    if (event.type === "codon.completed") request.activity?.ended();
    if (event.type !== "token.usage" || stopSent) return;
    if (request.overBudget?.(totalTokens(state.totals) - baseline) === true) {
      stopSent = true;
      handle.control.send({ type: "stop", source: "loop budget" });
    }
  };
  const { contract } = request;
  const handle = startExecution({
    hank: contract.body.hank,
    ...(contract.body.data !== null && { data: contract.body.data }),
    ...(contract.body.model !== null && { model: contract.body.model }),
    execution: layout.executionDir,
    newRun: !resumed,
    yes: true,
    headless: true,
    env: request.env,
    clock: request.clock,
    newId: () => `${prefix}${request.newId()}`,
    signal: request.signal,
    listeners: [listener],
  });
  const result = await handle.done;
  if (setupOpen) request.activity?.ended();
  return report(result, resumed, layout.checkpointGitDir, attempts);
}

async function report(
  result: ExecutionResult,
  resumed: boolean,
  gitDir: string,
  attempts: readonly CodonLayers[],
): Promise<BodyReport> {
  const none = { layers: [], tokens: 0, costUsd: 0, bodyRunId: null, workspaceTree: null, resumed };
  switch (result.kind) {
    case "invalid":
      return {
        ...none,
        end: { kind: "error", message: `The body hank is invalid: ${result.hankPath}`, unrecoverable: true },
      };
    case "refused":
      return { ...none, end: refusal(result.code, result.message) };
    case "nothing-to-do":
    case "ran": {
      const state = result.state;
      const bodyRunId = state.runs.at(-1)?.id ?? null;
      const end: BodyEnd =
        result.kind === "nothing-to-do"
          ? { kind: "completed" }
          : bodyEnd(result.outcome, result.message, state);
      return {
        end,
        layers: layersOf(state, attempts),
        tokens: state.codons.reduce(
          (sum, c) => sum + c.tokens.input + c.tokens.output + c.tokens.cacheCreation + c.tokens.cacheRead,
          0,
        ),
        costUsd: state.codons.reduce((sum, c) => sum + c.cost, 0),
        bodyRunId,
        workspaceTree: bodyRunId === null ? null : await treeOf(gitDir, bodyRunId),
        resumed,
      };
    }
  }
}

/** A start the runner refused: a missing tool or credential blocks the run; anything else is an error. */
function refusal(code: RefusalCode, message: string): BodyEnd {
  switch (code) {
    case "git-missing":
      return { kind: "blocked", cause: "missing_dependency", message };
    case "self-test-failed":
      return { kind: "blocked", cause: "missing_credential", message };
    case "lock-held":
    case "lock-lost":
      // Another process has the body's execution for now: a later generation may have it.
      return { kind: "error", message, unrecoverable: false };
    default:
      return { kind: "error", message, unrecoverable: true };
  }
}

function bodyEnd(outcome: string, message: string, state: RunState): BodyEnd {
  if (outcome === "completed") return { kind: "completed" };
  if (outcome === "aborted") return { kind: "aborted", message };
  const failed = state.codons.findLast((c) => c.status === "failed" && !c.failureIgnored);
  const reason = failed?.failureReason;
  // A failure that retrying cannot fix (a bad script, an invalid request) ends the run; a transient
  // one (a 503, a timeout) counts toward the failure breaker and the next generation tries again.
  return { kind: "error", message: reason?.message ?? message, unrecoverable: reason?.retriable === false };
}

/**
 * Each codon's attempts seen during this drive, in order; a codon that ended before it (a generation
 * resumed after a crash does not rerun its finished codons) keeps the layers its journal recorded.
 */
function layersOf(state: RunState, attempts: readonly CodonLayers[]): CodonLayers[] {
  return state.codons.flatMap((codon) => {
    const seen = attempts.filter((a) => a.codonId === codon.id);
    if (seen.length > 0) return seen;
    return codon.endReasons === null ? [] : [{ codonId: codon.id, ...codon.endReasons }];
  });
}

/** The tree id of the run's last checkpoint: what the generation left in the checkpointed files. */
async function treeOf(gitDir: string, runId: string): Promise<string | null> {
  try {
    const { stdout } = await exec("git", [
      "--git-dir",
      gitDir,
      "rev-parse",
      "--verify",
      "-q",
      `refs/heads/run/${runId}^{tree}`,
    ]);
    return stdout.trim() || null;
  } catch {
    return null;
  }
}
