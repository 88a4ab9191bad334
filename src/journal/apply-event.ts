import { undoesItsCodon } from "../events/checkpoints.ts";
import type { DataOf, EventOf, JournaledEvent } from "../events/events.ts";
import {
  type ActiveCodonStatus,
  type CodonStatus,
  isCodonStatus,
  isTerminalCodonStatus,
} from "../events/payloads-common.ts";
import {
  type CodonRecord,
  emptyCodonRecord,
  type LoopRecord,
  type RunState,
  type RunStatus,
} from "./run-state.ts";

/**
 * What `applyEvent` changes: the state's fields are assigned in place, codon records through the draft's
 * operations (which keep its id index right). Records are replaced, never changed (see RunStateStore).
 */
export interface RunStateDraft {
  readonly state: RunState;
  codon(id: string): CodonRecord | undefined;
  codonIndex(id: string): number;
  /** Replaces the record with the same id, or appends it: records stay in the order ids first appeared. */
  putCodon(record: CodonRecord): void;
  /** Keeps the first `count` records (a rollback). */
  keepCodons(count: number): void;
}

/**
 * The run-state rules, one event at a time. Conventions they rely on: a run starts and ends with
 * `state.transition` (`RunStarted`, `RunCompleted`, `RunFailed`, `RunCrashed`); an attempt ends with one
 * `codon.completed`; `CodonTransitioned` with `transition.data.status` moves a codon without ending an
 * attempt through `codon.completed` (skips, rig preparation); `token.usage` counts are increments and
 * its `totalCost` is the attempt's running cost. Events that carry no run state change nothing here.
 * The caller moves `lastSeq` and skips events already applied.
 */
export function applyEvent(draft: RunStateDraft, event: JournaledEvent): void {
  switch (event.type) {
    case "state.transition":
      onTransition(draft, event);
      return;
    case "codon.started":
      onCodonStarted(draft, event.data);
      return;
    case "codon.completed":
      onCodonCompleted(draft, event);
      return;
    case "token.usage":
      onTokenUsage(draft, event.data);
      return;
    case "codon.extended":
      withCodon(draft, event.data.codonId, (codon) => ({
        ...codon,
        extensions: Math.max(codon.extensions, event.data.extensionNumber),
      }));
      return;
    case "loop.iteration.completed":
      onLoopIteration(draft.state, event.data);
      return;
    case "rollback.completed":
      onRollbackCompleted(draft, event.data);
      return;
    case "sentinel.output":
    case "sentinel.error":
      onSentinelSpend(draft, event.data);
      return;
    default:
      return;
  }
}

/** Puts `update` of the codon's record; on first sight, of a new record appended in execution order. */
function withCodon(
  draft: RunStateDraft,
  id: string,
  update: (codon: CodonRecord, isNew: boolean) => CodonRecord,
): void {
  const existing = draft.codon(id);
  draft.putCodon(existing === undefined ? update(emptyCodonRecord(id), true) : update(existing, false));
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
  RunCrashed: "interrupted",
};

/** `RunFailed` records a delivered cancel or stop as `reason: "aborted"`: the run's outcome is `aborted`. */
function endStatusOf(event: EventOf<"state.transition">): RunStatus | undefined {
  const status = RUN_END_STATUS[event.data.transitionType];
  return status === "failed" && event.data.transition.data.reason === "aborted" ? "aborted" : status;
}

function onTransition(draft: RunStateDraft, event: EventOf<"state.transition">): void {
  const { data } = event;
  const { state } = draft;
  if (data.transitionType === "RunStarted") {
    const id = data.runId ?? data.resultingState.currentRunId ?? event.id;
    state.runs = [...state.runs.filter((run) => run.id !== id), runStarted(id, event.timestamp)];
    state.currentRunId = id;
    if (startsFresh(data.transition.data)) startNewLine(draft);
    return;
  }
  const endStatus = endStatusOf(event);
  if (endStatus) {
    onRunEnded(draft, data.runId ?? state.currentRunId, endStatus, event.timestamp);
    return;
  }
  if (data.transitionType === "CodonTransitioned" && data.codonId !== undefined) {
    const { status } = data.transition.data;
    if (isCodonStatus(status)) onCodonTransitioned(draft, data.codonId, status, event.timestamp);
  }
}

/** Whether a `RunStarted` is a fresh start from the first codon (not a continuation). */
export function startsFresh(transitionData: Readonly<Record<string, unknown>>): boolean {
  const conditions = transitionData.startingConditions;
  return (
    typeof conditions === "object" &&
    conditions !== null &&
    "type" in conditions &&
    conditions.type === "fresh"
  );
}

/**
 * A fresh run on an execution that already ran (a Loop's next generation) starts a new line: no codon
 * or loop of the earlier runs counts for it, while runs and totals (what was paid) are kept. On a new
 * execution there is nothing to clear.
 */
function startNewLine(draft: RunStateDraft): void {
  draft.keepCodons(0);
  draft.state.loops = {};
}

function runStarted(id: string, timestamp: string): RunState["runs"][number] {
  return { id, status: "running", startedAt: timestamp, endedAt: null };
}

/** Ends a run. A failed or crashed run also settles the codons it left active (crash: `interrupted`). */
function onRunEnded(draft: RunStateDraft, runId: string | null, status: RunStatus, timestamp: string): void {
  if (runId === null) return;
  const { state } = draft;
  state.runs = state.runs.map((run) => (run.id === runId ? { ...run, status, endedAt: timestamp } : run));
  if (state.currentRunId === runId) state.currentRunId = null;
  if (status === "completed") return;
  const crashed = status === "interrupted";
  for (const codon of state.codons) {
    if (activeStatus(codon.status) !== null)
      draft.putCodon(settleAttempt(codon, "failed", timestamp, crashed));
  }
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
    result: null,
    endReasons: crashed
      ? { stream: "interrupted", toolBatch: "interrupted", turn: "interrupted", codon: "interrupted" }
      : codon.endReasons,
    endedAt: timestamp,
  };
}

function onCodonTransitioned(draft: RunStateDraft, id: string, status: CodonStatus, timestamp: string): void {
  withCodon(draft, id, (codon, isNew) => {
    const wasActive = !isNew && activeStatus(codon.status) !== null;
    if (isTerminalCodonStatus(status) && wasActive) return settleAttempt(codon, status, timestamp, false);
    return { ...codon, status };
  });
}

function onCodonStarted(draft: RunStateDraft, data: DataOf<"codon.started">): void {
  withCodon(draft, data.codonId, (codon) => ({
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

function onCodonCompleted(draft: RunStateDraft, event: EventOf<"codon.completed">): void {
  const { data } = event;
  const running = draft.codon(data.codonId)?.runningCost ?? 0;
  withCodon(draft, data.codonId, (codon) => ({
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
    result: data.result ?? null,
    notStarted: data.notStarted ?? null,
    endedAt: event.timestamp,
  }));
  const { state } = draft;
  state.totals = {
    ...state.totals,
    cost: state.totals.cost + data.cost - running,
    durationMs: state.totals.durationMs + data.duration,
  };
}

/** Tokens always count; the running cost only moves while an attempt is active. */
function onTokenUsage(draft: RunStateDraft, data: DataOf<"token.usage">): void {
  const before = draft.codon(data.codonId);
  const active = before === undefined || activeStatus(before.status) !== null;
  const running = before?.runningCost ?? 0;
  withCodon(draft, data.codonId, (codon) => ({
    ...codon,
    runningCost: active ? data.totalCost : codon.runningCost,
    tokens: {
      input: codon.tokens.input + data.inputTokens,
      output: codon.tokens.output + data.outputTokens,
      cacheCreation: codon.tokens.cacheCreation + data.cacheCreationTokens,
      cacheRead: codon.tokens.cacheRead + data.cacheReadTokens,
    },
  }));
  const { state } = draft;
  const t = state.totals;
  state.totals = {
    ...t,
    cost: active ? t.cost + data.totalCost - running : t.cost,
    inputTokens: t.inputTokens + data.inputTokens,
    outputTokens: t.outputTokens + data.outputTokens,
    cacheCreationTokens: t.cacheCreationTokens + data.cacheCreationTokens,
    cacheReadTokens: t.cacheReadTokens + data.cacheReadTokens,
  };
}

/**
 * A sentinel's call is spend of the codon it observes: its cost and tokens join the codon's (and the
 * run's) as they are journaled, so budgets and the summary count them. A rejected reply carries spend
 * on its `sentinel.error`; other errors carry none.
 */
function onSentinelSpend(
  draft: RunStateDraft,
  data: DataOf<"sentinel.output"> | DataOf<"sentinel.error">,
): void {
  const cost = data.cost ?? 0;
  const input = data.tokens?.input ?? 0;
  const output = data.tokens?.output ?? 0;
  if (cost === 0 && input === 0 && output === 0) return;
  withCodon(draft, data.codonId, (codon) => ({
    ...codon,
    cost: codon.cost + cost,
    tokens: { ...codon.tokens, input: codon.tokens.input + input, output: codon.tokens.output + output },
  }));
  const { state } = draft;
  const t = state.totals;
  state.totals = {
    ...t,
    cost: t.cost + cost,
    inputTokens: t.inputTokens + input,
    outputTokens: t.outputTokens + output,
  };
}

function onLoopIteration(state: RunState, data: DataOf<"loop.iteration.completed">): void {
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
  // A new object, not an assignment: a loop id such as `__proto__` must stay an own key.
  state.loops = { ...state.loops, [data.loopId]: updated };
}

/**
 * A rollback undoes the codons after its target (in execution order), and the target too when the
 * checkpoint predates it. Spend is never undone: totals keep what was paid. Loop records are left as
 * they are; the engine's plan is the authority on loop progress after a rollback.
 */
function onRollbackCompleted(draft: RunStateDraft, data: DataOf<"rollback.completed">): void {
  const index = draft.codonIndex(data.codonId);
  if (index === -1) return;
  draft.keepCodons(undoesItsCodon(data.checkpointType) ? index : index + 1);
}
