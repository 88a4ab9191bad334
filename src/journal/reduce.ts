import type { DataOf, EventOf, JournaledEvent } from "./events.ts";
import { type ActiveCodonStatus, CodonStatus, isTerminalCodonStatus } from "./payloads-common.ts";
import {
  type CodonRecord,
  codonIndex,
  emptyCodonRecord,
  findCodon,
  type LoopRecord,
  type RunState,
  type RunStatus,
} from "./run-state.ts";

/**
 * The pure reducer: `reduce(state, event)` returns the state after `event` and never mutates its input.
 * Events with `seq <= state.lastSeq` are already included and return `state` unchanged, so replaying an
 * overlap (snapshot plus journal tail) is harmless. Events that carry no run state only move `lastSeq`.
 *
 * Conventions it relies on: a run starts and ends with `state.transition` (`RunStarted`, `RunCompleted`,
 * `RunFailed`, `RunCrashed`); an attempt ends with one `codon.completed`; `CodonTransitioned` with
 * `transition.data.status` moves a codon without ending an attempt through `codon.completed` (skips,
 * rig preparation); `token.usage` counts are increments and its `totalCost` is the attempt's running cost.
 */
export function reduce(state: RunState, event: JournaledEvent): RunState {
  if (event.seq <= state.lastSeq) return state;
  return { ...apply(state, event), lastSeq: event.seq, lastEventId: event.id };
}

function apply(state: RunState, event: JournaledEvent): RunState {
  switch (event.type) {
    case "state.transition":
      return onTransition(state, event);
    case "codon.started":
      return onCodonStarted(state, event.data);
    case "codon.completed":
      return onCodonCompleted(state, event);
    case "token.usage":
      return onTokenUsage(state, event.data);
    case "codon.extended":
      return withCodon(state, event.data.codonId, (codon) => ({
        ...codon,
        extensions: Math.max(codon.extensions, event.data.extensionNumber),
      }));
    case "loop.iteration.completed":
      return onLoopIteration(state, event.data);
    case "rollback.completed":
      return onRollbackCompleted(state, event.data);
    default:
      return state;
  }
}

/** Applies `update` to the codon's record; on first sight to a new record appended in execution order. */
function withCodon(
  state: RunState,
  id: string,
  update: (codon: CodonRecord, isNew: boolean) => CodonRecord,
): RunState {
  const index = codonIndex(state, id);
  const existing = state.codons[index];
  if (existing === undefined)
    return { ...state, codons: [...state.codons, update(emptyCodonRecord(id), true)] };
  return { ...state, codons: state.codons.with(index, update(existing, false)) };
}

function activeStatus(status: CodonStatus): ActiveCodonStatus | null {
  switch (status) {
    case "completed":
    case "failed":
    case "skipped":
      return null;
    default:
      return status;
  }
}

const RUN_END_STATUS: Readonly<Record<string, RunStatus>> = {
  RunCompleted: "completed",
  RunFailed: "failed",
  RunCrashed: "crashed",
};

function onTransition(state: RunState, event: EventOf<"state.transition">): RunState {
  const { data } = event;
  if (data.transitionType === "RunStarted") {
    const id = data.runId ?? data.resultingState.currentRunId ?? event.id;
    const runs = [...state.runs.filter((run) => run.id !== id), runStarted(id, event.timestamp)];
    return { ...state, runs, currentRunId: id };
  }
  const endStatus = RUN_END_STATUS[data.transitionType];
  if (endStatus) return onRunEnded(state, data.runId ?? state.currentRunId, endStatus, event.timestamp);
  if (data.transitionType === "CodonTransitioned" && data.codonId !== undefined) {
    const status = CodonStatus.safeParse(data.transition.data.status);
    if (status.success) return onCodonTransitioned(state, data.codonId, status.data, event.timestamp);
  }
  return state;
}

function runStarted(id: string, timestamp: string): RunState["runs"][number] {
  return { id, status: "running", startedAt: timestamp, endedAt: null };
}

/** Ends a run. A failed or crashed run also settles the codon it left active (crash: `interrupted`). */
function onRunEnded(state: RunState, runId: string | null, status: RunStatus, timestamp: string): RunState {
  if (runId === null) return state;
  const runs = state.runs.map((run) => (run.id === runId ? { ...run, status, endedAt: timestamp } : run));
  const ended = { ...state, runs, currentRunId: state.currentRunId === runId ? null : state.currentRunId };
  if (status === "completed") return ended;
  const crashed = status === "crashed";
  const codons = ended.codons.map((codon) =>
    activeStatus(codon.status) === null ? codon : settleAttempt(codon, "failed", timestamp, crashed),
  );
  return { ...ended, codons };
}

/** Ends an attempt that no `codon.completed` closed: its running cost becomes final. */
function settleAttempt(
  codon: CodonRecord,
  status: CodonStatus,
  timestamp: string,
  crashed: boolean,
): CodonRecord {
  const during = activeStatus(codon.status);
  return {
    ...codon,
    status,
    attempts: codon.attempts + 1,
    cost: codon.cost + codon.runningCost,
    runningCost: 0,
    failedDuring: status === "failed" ? during : null,
    endReasons: crashed
      ? { stream: "interrupted", toolBatch: "interrupted", turn: "interrupted", codon: "interrupted" }
      : codon.endReasons,
    endedAt: timestamp,
  };
}

function onCodonTransitioned(state: RunState, id: string, status: CodonStatus, timestamp: string): RunState {
  return withCodon(state, id, (codon, isNew) => {
    const wasActive = !isNew && activeStatus(codon.status) !== null;
    if (isTerminalCodonStatus(status) && wasActive) return settleAttempt(codon, status, timestamp, false);
    return { ...codon, status };
  });
}

function onCodonStarted(state: RunState, data: DataOf<"codon.started">): RunState {
  return withCodon(state, data.codonId, (codon) => ({
    ...codon,
    name: data.codonName,
    status: "running",
    sessionId: data.sessionId,
    cost: codon.cost + codon.runningCost,
    runningCost: 0,
    startedAt: data.startTime,
    endedAt: null,
  }));
}

function onCodonCompleted(state: RunState, event: EventOf<"codon.completed">): RunState {
  const { data } = event;
  const before = findCodon(state, data.codonId);
  const running = before?.runningCost ?? 0;
  const next = withCodon(state, data.codonId, (codon) => ({
    ...codon,
    status: data.success ? "completed" : "failed",
    attempts: codon.attempts + 1,
    cost: codon.cost + data.cost,
    runningCost: 0,
    durationMs: codon.durationMs + data.duration,
    failureReason: data.failureReason ?? null,
    failedDuring: data.success ? null : (data.failedDuring ?? activeStatus(codon.status)),
    failureIgnored: data.failureIgnored ?? false,
    budgetExceeded: data.budgetExceeded ?? null,
    endReasons: data.endReasons ?? null,
    endedAt: event.timestamp,
  }));
  const totals = {
    ...next.totals,
    cost: next.totals.cost + data.cost - running,
    durationMs: next.totals.durationMs + data.duration,
  };
  return { ...next, totals };
}

/** Tokens always count; the running cost only moves while an attempt is active. */
function onTokenUsage(state: RunState, data: DataOf<"token.usage">): RunState {
  const before = findCodon(state, data.codonId);
  const active = before === undefined || activeStatus(before.status) !== null;
  const running = before?.runningCost ?? 0;
  const next = withCodon(state, data.codonId, (codon) => ({
    ...codon,
    runningCost: active ? data.totalCost : codon.runningCost,
    tokens: {
      input: codon.tokens.input + data.inputTokens,
      output: codon.tokens.output + data.outputTokens,
      cacheCreation: codon.tokens.cacheCreation + data.cacheCreationTokens,
      cacheRead: codon.tokens.cacheRead + data.cacheReadTokens,
    },
  }));
  const t = next.totals;
  const totals = {
    ...t,
    cost: active ? t.cost + data.totalCost - running : t.cost,
    inputTokens: t.inputTokens + data.inputTokens,
    outputTokens: t.outputTokens + data.outputTokens,
    cacheCreationTokens: t.cacheCreationTokens + data.cacheCreationTokens,
    cacheReadTokens: t.cacheReadTokens + data.cacheReadTokens,
  };
  return { ...next, totals };
}

function onLoopIteration(state: RunState, data: DataOf<"loop.iteration.completed">): RunState {
  const loop: LoopRecord = state.loops[data.loopId] ?? {
    id: data.loopId,
    iterationsCompleted: 0,
    lastIteration: null,
    isFinal: false,
    terminationReason: null,
    costUsd: 0,
    durationMs: 0,
    tokensUsed: 0,
  };
  const updated: LoopRecord = {
    ...loop,
    iterationsCompleted: loop.iterationsCompleted + 1,
    lastIteration: data.iteration,
    isFinal: data.isFinal,
    terminationReason: data.terminationReason ?? null,
    costUsd: loop.costUsd + data.costUsd,
    durationMs: loop.durationMs + data.durationMs,
    tokensUsed: loop.tokensUsed + data.tokensUsed,
  };
  return { ...state, loops: { ...state.loops, [data.loopId]: updated } };
}

/** Checkpoint types that restore the state before the codon ran, so the codon itself is undone too. */
const BEFORE_CODON = new Set(["rig-setup", "start"]);

/**
 * A rollback undoes the codons after its target (in execution order), and the target too when the
 * checkpoint predates it. Spend is never undone: totals keep what was paid. Loop records are left as
 * they are; the engine's plan is the authority on loop progress after a rollback.
 */
function onRollbackCompleted(state: RunState, data: DataOf<"rollback.completed">): RunState {
  const index = codonIndex(state, data.codonId);
  if (index === -1) return state;
  const keep = BEFORE_CODON.has(data.checkpointType) ? index : index + 1;
  return { ...state, codons: state.codons.slice(0, keep) };
}
