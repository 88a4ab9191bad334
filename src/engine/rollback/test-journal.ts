import type { CheckpointRecord, CheckpointType } from "../../checkpoint/index.ts";
import type { DataOf, JournaledEvent } from "../../journal/index.ts";
import { RECORD_VERSION } from "../../journal/index.ts";
import type { EventDraftOf } from "../run/event-sink.ts";

/** Test support for the rollback modules: small journals and checkpoint records, written by hand. */

/** The drafts as journal records, `seq` and ids counting from 1. */
export function journalOf(drafts: readonly EventDraftOf[]): JournaledEvent[] {
  return drafts.map(
    (draft, index) =>
      ({
        v: RECORD_VERSION,
        id: `e-${index + 1}`,
        seq: index + 1,
        timestamp: "2025-01-01T00:00:00.000Z",
        type: draft.type,
        data: draft.data,
      }) as JournaledEvent,
  );
}

export function runStarted(runId: string): EventDraftOf {
  return {
    type: "state.transition",
    data: {
      transitionType: "RunStarted",
      runId,
      transition: { type: "RunStarted", data: {} },
      resultingState: { currentRunId: runId, runCount: 1, totalCost: 0, currentRunCost: 0 },
    },
  };
}

export function runCompleted(runId: string): EventDraftOf {
  return {
    type: "state.transition",
    data: {
      transitionType: "RunCompleted",
      runId,
      transition: { type: "RunCompleted", data: {} },
      resultingState: { currentRunId: null, runCount: 1, totalCost: 0, currentRunCost: 0 },
    },
  };
}

/** The journaled start of a run's line of checkpoints (`InitialCheckpointSet`). */
export function lineBase(runId: string, checkpoint: string): EventDraftOf {
  return {
    type: "state.transition",
    data: {
      transitionType: "InitialCheckpointSet",
      runId,
      transition: { type: "InitialCheckpointSet", data: { checkpoint } },
      resultingState: { currentRunId: runId, runCount: 1, totalCost: 0, currentRunCost: 0 },
    },
  };
}

export function codonDone(codonId: string, success = true): EventDraftOf {
  return {
    type: "codon.completed",
    data: {
      codonId,
      success,
      cost: 0,
      duration: 1,
      exitStatus: success ? { type: "success" } : { type: "error", code: 1 },
    },
  };
}

export function iterationDone(loopId: string, iteration: number, isFinal = false): EventDraftOf {
  return {
    type: "loop.iteration.completed",
    data: {
      loopId,
      iteration,
      durationMs: 1,
      costUsd: 0,
      tokensUsed: 0,
      isFinal,
      ...(isFinal && { terminationReason: "iteration_limit" as const }),
    },
  };
}

export function rolledBack(data: Partial<DataOf<"rollback.completed">> & { toRun: string }): EventDraftOf {
  return {
    type: "rollback.completed",
    data: {
      fromRun: "run-1",
      checkpoint: "c".repeat(40),
      codonId: "a",
      codonName: "a",
      checkpointType: "completed",
      autoRestart: false,
      ...data,
    },
  };
}

export function rollbackStarted(toCodon: string, toCheckpoint: string): EventDraftOf {
  return {
    type: "rollback.started",
    data: {
      fromRun: "run-1",
      fromCodon: "c",
      toCodon,
      toCheckpoint,
      checkpointType: "completed",
      codonsToProcess: [],
    },
  };
}

/** A checkpoint record; a short `sha` is padded with zeros to 40 digits. */
export function checkpoint(
  runId: string,
  codonId: string,
  checkpointType: CheckpointType,
  sha: string,
  timestamp = "2025-01-01T00:00:00.000Z",
): CheckpointRecord {
  return {
    sha: sha.length === 40 ? sha : sha.padEnd(40, "0"),
    codonId,
    codonName: codonId.toUpperCase(),
    checkpointType,
    runId,
    timestamp,
    branch: `run/${runId}`,
  };
}
