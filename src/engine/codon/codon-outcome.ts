import type { CodonFinish } from "../../plan/index.ts";
import type { BudgetExceeded, CodonLimits } from "../budget/index.ts";
import type { EventDraftOf } from "../run/event-sink.ts";
import type { CodonResult } from "./codon-result.ts";

/** How a codon ended, for the plan; `runFailure` says why the run cannot go on. */
export interface CodonOutcome {
  readonly finish: CodonFinish;
  /**
   * The codon's final `codon.completed` (and its narration), not yet emitted: the driver emits them in
   * one journal write with the loop decision they cause, so a crash never separates the two.
   */
  readonly pending: readonly EventDraftOf[];
  /** The limits the last attempt ran under and what tripped, for the budget summary. */
  readonly limits?: CodonLimits;
  readonly exceeded?: BudgetExceeded;
  readonly runFailure?: string;
  readonly cancelled?: boolean;
  readonly sessionExhausted?: boolean;
  /**
   * The failure policy says `stay-active`: a retriable failure under `onFailure: "abort"` in a run that
   * is not headless. The driver may park the codon for a client to retry, skip or stop it; `runFailure`
   * says why the run fails when nobody answers.
   */
  readonly parkable?: boolean;
  /**
   * What the last attempt produced (final text, files changed, usage), successful or failed, for
   * whatever decides what follows (stop rules). Absent when that attempt ended before the agent ran
   * (rig setup, prompts, model, harness) or the run was cancelled while waiting to retry.
   */
  readonly result?: CodonResult;
}
