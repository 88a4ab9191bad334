import type { LayerEndReasons } from "../../harness/end-reason.ts";
import type { FailureReason } from "../../harness/failure-reason.ts";
import type { ActiveCodonStatus, CodonEndReasons, ExitStatus } from "../../journal/index.ts";
import type { BudgetExceeded, CodonLimits } from "../budget/index.ts";
import type { CodonResult } from "./codon-result.ts";

/** What one attempt of one codon came to, before the failure policy is applied. */
interface AttemptFacts {
  readonly costUsd: number;
  readonly durationMs: number;
  readonly sessionId?: string;
  readonly endReasons: CodonEndReasons;
  readonly exitStatus: ExitStatus;
  /** Null when unknown (a shell ran): the checkpoint scans. */
  readonly changedPaths: readonly string[] | null;
  readonly limits?: CodonLimits;
  readonly budgetExceeded?: BudgetExceeded;
  /** What the agent produced; absent when the attempt ended before an agent session ran. */
  readonly result?: CodonResult;
}

export type AttemptEnd =
  | (AttemptFacts & {
      readonly kind: "success";
      /** The codon ended on context exhaustion that its loop (or its extensions) treat as success. */
      readonly contextExceeded: boolean;
    })
  | (AttemptFacts & {
      readonly kind: "failure";
      readonly reason: FailureReason;
      readonly failedDuring: ActiveCodonStatus;
    })
  | (AttemptFacts & { readonly kind: "cancelled"; readonly failedDuring: ActiveCodonStatus });

/** For `continue-previous`: the session to resume, or why there is none. */
export type ResumeTarget = { readonly sessionId: string } | { readonly problem: string };

export function endReasonsOf(layers: LayerEndReasons, codon: CodonEndReasons["codon"]): CodonEndReasons {
  return { stream: layers.stream, toolBatch: layers.toolBatch, turn: layers.turn, codon };
}

export const NO_LAYERS: LayerEndReasons = { stream: "completed", toolBatch: "completed", turn: "completed" };
