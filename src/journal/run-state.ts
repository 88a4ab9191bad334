import { z } from "zod";
import {
  ActiveCodonStatus,
  BudgetExceeded,
  CodonEndReasons,
  CodonResultText,
  CodonStatus,
  Count,
  FailureReason,
  IsoTimestamp,
  LoopTerminationReason,
} from "../events/payloads-common.ts";
import { NotStarted } from "../events/payloads-server-state.ts";
import { RUN_STATUSES } from "../events/run-outcome.ts";

/**
 * The run state that `reduce` rebuilds from the journal: what an engine needs to resume (which codons
 * finished, their session ids, spend so far, attempts used) and what the CLI prints as a summary.
 * Plain JSON, so `state.json` stores it as is. Absent values are `null`, never missing keys.
 */

/**
 * A run record's status: running, or its outcome (`RUN_OUTCOMES`, one vocabulary with the engine and
 * the CLI). Snapshots written before the outcomes were unified said `crashed` for `interrupted`.
 */
export const RunStatus = z.preprocess(
  (value) => (value === "crashed" ? "interrupted" : value),
  z.enum(RUN_STATUSES),
);
export type RunStatus = z.infer<typeof RunStatus>;

export const RunRecord = z.strictObject({
  id: z.string(),
  status: RunStatus,
  startedAt: IsoTimestamp,
  endedAt: IsoTimestamp.nullable(),
});
export type RunRecord = z.infer<typeof RunRecord>;

export const CodonTokens = z.strictObject({
  input: Count,
  output: Count,
  cacheCreation: Count,
  cacheRead: Count,
});
export type CodonTokens = z.infer<typeof CodonTokens>;

/** One codon execution by runtime id (`edit#2` inside loops), over all its attempts. */
export const CodonRecord = z.strictObject({
  id: z.string(),
  name: z.string().nullable(),
  status: CodonStatus,
  /** Attempts that ended (completed, failed, or settled by a failed or crashed run). */
  attempts: Count,
  /** The session of the latest attempt: what `continue-previous` resumes. */
  sessionId: z.string().nullable(),
  /** USD of the ended attempts (final figures). */
  cost: z.number(),
  /** USD of the attempt in progress so far (from `token.usage`); 0 between attempts. */
  runningCost: z.number(),
  /** Milliseconds of the ended attempts. */
  durationMs: z.number(),
  tokens: CodonTokens,
  /** Highest `exhaustWithPrompt` extension number seen. */
  extensions: Count,
  failureReason: FailureReason.nullable(),
  failedDuring: ActiveCodonStatus.nullable(),
  failureIgnored: z.boolean(),
  budgetExceeded: BudgetExceeded.nullable(),
  endReasons: CodonEndReasons.nullable(),
  /**
   * The final text of the latest ended attempt when it succeeded (`codon.completed`'s `result`); null
   * when it failed or had none. Defaults to null when read, so a `state.json` written before the field
   * existed still loads.
   */
  result: CodonResultText.nullable().default(null),
  /**
   * Set when the latest attempt completed without starting because the run's ceiling was spent
   * (`codon.completed`'s `notStarted`): such a codon is not done, and a later start runs it. Defaults to
   * null when read, so a `state.json` written before the field existed still loads.
   */
  notStarted: NotStarted.nullable().default(null),
  startedAt: IsoTimestamp.nullable(),
  endedAt: IsoTimestamp.nullable(),
});
export type CodonRecord = z.infer<typeof CodonRecord>;

export const LoopRecord = z.strictObject({
  id: z.string(),
  iterationsCompleted: Count,
  /** 0-based index of the latest completed iteration; null before the first. */
  lastIteration: Count.nullable(),
  isFinal: z.boolean(),
  terminationReason: LoopTerminationReason.nullable(),
  costUsd: z.number(),
  durationMs: z.number(),
  tokensUsed: Count,
});
export type LoopRecord = z.infer<typeof LoopRecord>;

export const RunTotals = z.strictObject({
  /** USD over every attempt of every run, the attempt in progress included; never lowered by a rollback. */
  cost: z.number(),
  /** Milliseconds of ended codon attempts. */
  durationMs: z.number(),
  inputTokens: Count,
  outputTokens: Count,
  cacheCreationTokens: Count,
  cacheReadTokens: Count,
});
export type RunTotals = z.infer<typeof RunTotals>;

export const RunStateSchema = z.strictObject({
  /** The journal position this state includes: events with `seq <= lastSeq` are already applied. */
  lastSeq: Count,
  /** The id of the event at `lastSeq`, to check that a snapshot and a journal agree. */
  lastEventId: z.string().nullable(),
  currentRunId: z.string().nullable(),
  /** Oldest first. */
  runs: z.array(RunRecord),
  /**
   * One record per runtime id, in the order the ids first appeared (the execution order). An array, not
   * a map: the reducer replaces one element per event, and copying an array stays cheap at thousands of
   * codons where copying a large object does not. Look up with `findCodon`.
   */
  codons: z.array(CodonRecord),
  loops: z.record(z.string(), LoopRecord),
  totals: RunTotals,
});
export type RunState = z.infer<typeof RunStateSchema>;

export function initialRunState(): RunState {
  return {
    lastSeq: 0,
    lastEventId: null,
    currentRunId: null,
    runs: [],
    codons: [],
    loops: {},
    totals: {
      cost: 0,
      durationMs: 0,
      inputTokens: 0,
      outputTokens: 0,
      cacheCreationTokens: 0,
      cacheReadTokens: 0,
    },
  };
}

export function emptyCodonRecord(id: string): CodonRecord {
  return {
    id,
    name: null,
    status: "preparing",
    attempts: 0,
    sessionId: null,
    cost: 0,
    runningCost: 0,
    durationMs: 0,
    tokens: { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 },
    extensions: 0,
    failureReason: null,
    failedDuring: null,
    failureIgnored: false,
    budgetExceeded: null,
    endReasons: null,
    result: null,
    notStarted: null,
    startedAt: null,
    endedAt: null,
  };
}

/** The index of the codon's record, searched from the end where the active codon is; -1 when absent. */
export function codonIndex(state: RunState, id: string): number {
  return state.codons.findLastIndex((codon) => codon.id === id);
}

export function findCodon(state: RunState, id: string): CodonRecord | undefined {
  return state.codons[codonIndex(state, id)];
}
