import { z } from "zod";
import { CHECKPOINT_TYPES } from "./checkpoints.ts";
import {
  ActiveCodonStatus,
  BudgetExceeded,
  CodonEndReasons,
  CodonExecution,
  CodonResultText,
  CodonStatus,
  Count,
  ExitStatus,
  FailedPath,
  FailureReason,
  FileNode,
  IsoTimestamp,
  LoopTerminationReason,
  TokenUsage,
} from "./payloads-common.ts";

/**
 * Payloads of the server-state events (reference 1.10, first row): journaled and broadcast. Names and
 * optionality follow the reference; additions are commented.
 */

export const CodonStartedData = z.strictObject({
  codonId: z.string(),
  codonName: z.string(),
  codonDescription: z.string().optional(),
  sessionId: z.string(),
  previousSessionId: z.string().optional(),
  startTime: IsoTimestamp,
  promptMetadata: z
    .strictObject({
      name: z.string().optional(),
      description: z.string().optional(),
      tags: z.array(z.string()).optional(),
      version: z.string().optional(),
      author: z.string().optional(),
    })
    .optional(),
  /** Addition: 1-based attempt number (retries increment it). */
  attempt: z.int().positive().optional(),
});

/** See `CodonCompletedData.notStarted`. */
export const NotStarted = z.strictObject({
  ceiling: z.string(),
  iterationsLeft: z.int().positive().optional(),
});
export type NotStarted = z.infer<typeof NotStarted>;

export const CodonCompletedData = z.strictObject({
  codonId: z.string(),
  success: z.boolean(),
  /** USD of this attempt: the authoritative final figure. */
  cost: z.number(),
  /** Milliseconds of this attempt. */
  duration: z.number(),
  exitStatus: ExitStatus,
  failureReason: FailureReason.optional(),
  failureIgnored: z.boolean().optional(),
  budgetExceeded: BudgetExceeded.optional(),
  /** Addition: why each layer of the attempt ended. */
  endReasons: CodonEndReasons.optional(),
  /** Addition: 1-based attempt number. */
  attempt: z.int().positive().optional(),
  /** Addition: the state the codon failed during (reference 1.11 keeps it in state.json only). */
  failedDuring: ActiveCodonStatus.optional(),
  /**
   * Addition: the agent's final text, on successful attempts in which it said something (bounded, see
   * `CodonResultText`).
   */
  result: CodonResultText.optional(),
  /**
   * Addition: the codon completed without starting, because the run's ceiling (`--max-cost`,
   * `--max-time`, `overrides.budget`) was spent before it (`onExceeded: complete`, the reference's
   * starvation). It is not done: a later start with a higher ceiling runs it. `ceiling` names the limit
   * in words; inside a loop, `iterationsLeft` counts the iterations (this one included) not run.
   */
  notStarted: NotStarted.optional(),
});

export const CodonExtendedData = z.strictObject({
  codonId: z.string(),
  codonName: z.string(),
  extensionNumber: z.int().positive(),
  exhaustWithPrompt: z.string(),
  cumulativeTokens: TokenUsage,
  cumulativeCost: z.number(),
});

export const StateSnapshotData = z.strictObject({
  currentCodon: CodonExecution.optional(),
  completedCodons: z.array(CodonExecution),
  fileTree: z.array(FileNode),
  totalCost: z.number(),
  totalTime: z.number(),
  recentFileAccess: z
    .strictObject({ path: z.string(), content: z.string(), timestamp: z.string() })
    .optional(),
  isRollingBack: z.boolean(),
});

export const ServerIdleData = z.strictObject({
  reason: z.enum(["startup", "codon-completed", "all-codons-completed", "rollback-completed"]),
  message: z.string(),
});

/**
 * Usage of one model response. Contract: the token counts are this response's increment; `totalCost` is
 * the codon attempt's running cost in USD after it (the reducer sums tokens and tracks the running cost).
 */
export const TokenUsageData = z.strictObject({
  codonId: z.string(),
  inputTokens: Count,
  outputTokens: Count,
  cacheCreationTokens: Count,
  cacheReadTokens: Count,
  totalCost: z.number(),
  modelId: z.string().optional(),
  modelUsage: z
    .record(
      z.string(),
      z.strictObject({
        inputTokens: Count,
        outputTokens: Count,
        cacheReadInputTokens: Count.optional(),
        cacheCreationInputTokens: Count.optional(),
        costUSD: z.number(),
      }),
    )
    .optional(),
});

export const InfoData = z.strictObject({ message: z.string() });

export const ErrorData = z.strictObject({
  message: z.string(),
  codon: z.string().optional(),
  fatal: z.boolean(),
  severity: z.enum(["fatal", "codon", "operation", "warning"]).optional(),
  context: z.string().optional(),
  code: z.string().optional(),
});

export const CheckpointType = z.enum(CHECKPOINT_TYPES);
export type CheckpointType = z.infer<typeof CheckpointType>;

export const CheckpointListData = z.strictObject({
  runId: z.string(),
  checkpoints: z.array(
    z.strictObject({
      codonId: z.string(),
      codonName: z.string(),
      checkpointType: CheckpointType,
      sha: z.string(),
      status: CodonStatus,
      timestamp: z.string(),
    }),
  ),
  currentBranch: z.string(),
});

export const RollbackStartedData = z.strictObject({
  fromRun: z.string(),
  fromCodon: z.string(),
  toCodon: z.string(),
  toCheckpoint: z.string(),
  checkpointType: z.string(),
  codonsToProcess: z.array(z.string()),
});

export const RollbackProgressData = z.strictObject({
  currentStep: Count,
  totalSteps: Count,
  message: z.string(),
});

export const RollbackCodonCheckpointData = z.strictObject({
  codonId: z.string(),
  codonName: z.string(),
  checkpoint: z.string(),
  checkpointType: z.string(),
  message: z.string(),
});

export const RollbackCompletedData = z.strictObject({
  fromRun: z.string(),
  toRun: z.string(),
  checkpoint: z.string(),
  codonId: z.string(),
  codonName: z.string(),
  checkpointType: z.string(),
  autoRestart: z.boolean(),
});

export const RollbackRigCleanupData = z.strictObject({
  codonId: z.string(),
  codonName: z.string(),
  directories: z.array(z.string()),
  status: z.enum(["started", "completed", "failed", "partial"]),
  successfulCleanups: z.array(z.string()).optional(),
  failedCleanups: z.array(z.strictObject({ directory: z.string(), error: z.string() })).optional(),
  error: z.string().optional(),
});

export const RollbackArchiveRestoreData = z.strictObject({
  codonId: z.string(),
  restoredPaths: z.array(z.string()),
  failedPaths: z.array(FailedPath).optional(),
  status: z.enum(["completed", "partial", "failed"]),
});

export const TRANSITION_TYPES = [
  "RunStarted",
  "RunCompleted",
  "RunFailed",
  "RunCrashed",
  "CodonStarted",
  "CodonTransitioned",
  "CostsUpdated",
  "CostsIncremented",
  "AssistantMessageCountUpdated",
  "ExtensionCountUpdated",
  "CheckpointCreated",
  "InitialCheckpointSet",
  "CodonFinalCostSet",
  "SentinelStatesUpdated",
] as const;
export const TransitionType = z.enum(TRANSITION_TYPES);
export type TransitionType = z.infer<typeof TransitionType>;

/**
 * A state change. Runs start and end through `RunStarted/RunCompleted/RunFailed/RunCrashed` with `runId`.
 * Convention read by the reducer: `CodonTransitioned` carries `codonId` and `transition.data.status`
 * (a codon status), e.g. `skipped`, or `preparing` before rig setup.
 */
export const StateTransitionData = z.strictObject({
  transitionType: TransitionType,
  runId: z.string().optional(),
  codonId: z.string().optional(),
  transition: z.strictObject({ type: z.string(), data: z.record(z.string(), z.unknown()) }),
  resultingState: z.strictObject({
    currentRunId: z.string().nullable(),
    runCount: Count,
    totalCost: z.number(),
    currentRunCost: z.number(),
  }),
});

export const LoopIterationCompletedData = z.strictObject({
  loopId: z.string(),
  /** 0-based. */
  iteration: Count,
  durationMs: z.number(),
  costUsd: z.number(),
  tokensUsed: Count,
  isFinal: z.boolean(),
  terminationReason: LoopTerminationReason.optional(),
  /**
   * Addition, on a final report without a termination reason: what ended the loop, `budget` or the
   * cause a caller's stop rule gave (`tests-pass`).
   */
  endCause: z.string().optional(),
});

export const ArchiveCompletedData = z.strictObject({
  codonId: z.string(),
  archivedPaths: z.array(z.string()),
});

export const ArchivePartialData = z.strictObject({
  codonId: z.string(),
  archivedPaths: z.array(z.string()),
  failedPaths: z.array(FailedPath),
});

const SummaryStatus = z.enum(["completed", "failed", "skipped", "exceeded", "running"]);

export const BudgetSummaryData = z.strictObject({
  ceiling: z.strictObject({ maxDollars: z.number().optional(), maxTimeSeconds: z.number().optional() }),
  allocation: z.enum(["shared", "proportional", "proportional-strict"]),
  rows: z.array(
    z.strictObject({
      codonId: z.string(),
      loopContext: z
        .strictObject({ loopId: z.string(), iteration: Count, codonIndexInLoop: Count })
        .optional(),
      status: SummaryStatus,
      budget: z.strictObject({
        maxDollars: z.number().optional(),
        maxTimeSeconds: z.number().optional(),
        maxOutputTokens: z.number().optional(),
      }),
      actual: z.strictObject({ dollars: z.number(), timeSeconds: z.number(), outputTokens: Count }),
      /** Addition: the limit that tripped, when one did. */
      budgetExceeded: BudgetExceeded.optional(),
    }),
  ),
  totals: z.strictObject({
    budgetDollars: z.number().optional(),
    /** Addition. */
    budgetTimeSeconds: z.number().optional(),
    actualDollars: z.number(),
    actualTimeSeconds: z.number(),
    /** Addition. */
    actualOutputTokens: Count.optional(),
  }),
});
