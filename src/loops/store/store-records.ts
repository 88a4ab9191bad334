import type { LoopEventInput } from "../../events/loop-events.ts";
import type { LiveState, ParkReason, RunStateName, TerminalCause } from "../../events/loop-run-states.ts";
import type { GenerationState, LoopCommandType, TriggerKind } from "../../events/loop-words.ts";
import type { LoopKind } from "../definition/definition-schema.ts";
import type { BudgetAmendment, Meters } from "../model/budgets.ts";
import type { PinnedContract } from "../model/contract.ts";
import type { GenerationFacts } from "../model/generation-facts.ts";
import type { MessageKind } from "../model/inbox.ts";
import type { Via } from "../model/state-table.ts";

export { COMMAND_TYPES, type GenerationState, type LoopCommandType } from "../../events/loop-words.ts";

/** The records a loop store keeps. Plain JSON-able data; times are ISO strings, leases epoch ms. */

export interface LoopRunRecord {
  readonly id: string;
  readonly loopId: string;
  /** The run's idempotency key, unique per loop. */
  readonly key: string;
  readonly trigger: TriggerKind;
  readonly state: RunStateName;
  readonly cause: TerminalCause | null;
  readonly parkReason: ParkReason | null;
  /** Where a paused run returns on resume. */
  readonly pausedFrom: LiveState | null;
  readonly contract: PinnedContract;
  readonly meters: Meters;
  readonly amendments: readonly BudgetAmendment[];
  /** The run's own directory: pinned files and the body's execution. */
  readonly dir: string;
  readonly createdAt: string;
  /** When the run entered its current state (park age). */
  readonly stateSince: string;
  readonly endedAt: string | null;
  readonly leaseOwner: string | null;
  readonly leaseExpiresAt: number | null;
  /** Bumped by every lease acquisition; a write with an older token is refused. */
  readonly fencingToken: number;
}

/**
 * A live run as a daemon's tick sees it: only what decides whether to drive it (its state, its lease,
 * whether commands wait) and when a watching run polls. No contract, meters or amendments are read.
 */
export type LiveRunLease = Pick<
  LoopRunRecord,
  "id" | "trigger" | "state" | "createdAt" | "leaseOwner" | "leaseExpiresAt"
> & {
  /** Unsettled commands wait for the run (a parked run is driven to settle them). */
  readonly commandsWaiting: boolean;
};

export type NewRun = Omit<
  LoopRunRecord,
  | "state"
  | "cause"
  | "parkReason"
  | "pausedFrom"
  | "stateSince"
  | "endedAt"
  | "leaseOwner"
  | "leaseExpiresAt"
  | "fencingToken"
>;

/** End reasons of the layers below a generation, per codon, from the body's journal. */
export interface CodonLayers {
  readonly codonId: string;
  /** 1-based attempt number: a codon retried, or restarted after a crash, has one entry per attempt. */
  readonly attempt?: number;
  readonly stream: string;
  readonly toolBatch: string;
  readonly turn: string;
  readonly codon: string;
}

export interface GenerationRecord {
  readonly runId: string;
  readonly number: number;
  readonly key: string;
  readonly state: GenerationState;
  /** The stop model's input (body end, gate verdicts, hash); complete once the generation ends. */
  readonly facts: GenerationFacts;
  readonly layers: readonly CodonLayers[];
  /** The body's run id in its execution journal. */
  readonly bodyRunId: string | null;
  /** The tree id of the body's last checkpoint (the `workspace` hash field). */
  readonly workspaceTree: string | null;
  readonly tokens: number | null;
  readonly costUsd: number | null;
  /** Inbox messages this generation was handed (every continuation names its message). */
  readonly readMessages: readonly number[];
  readonly startedAt: string;
  readonly endedAt: string | null;
}

export interface StoredMessage {
  readonly id: number;
  readonly runId: string;
  readonly kind: MessageKind;
  readonly author: string;
  readonly text: string;
  readonly createdAt: string;
  readonly readByGeneration: number | null;
}

export interface LoopCommand {
  readonly type: LoopCommandType;
  readonly by: string;
  /** `approve --add`: the amount added to the exceeded budget. */
  readonly add?: number;
  readonly comment?: string;
}

export interface StoredCommand extends LoopCommand {
  readonly id: number;
  readonly runId: string;
  readonly createdAt: string;
  readonly settledAt: string | null;
  /** `applied`, or `refused: <why>`. */
  readonly outcome: string | null;
}

export type { LoopEvent, LoopEventInput } from "../../events/loop-events.ts";

export interface Effect {
  readonly id: number;
  /** Stable across retries: receivers deduplicate on it. */
  readonly deliveryId: string;
  readonly runId: string;
  readonly kind: "escalation";
  readonly payload: Readonly<Record<string, unknown>>;
  readonly createdAt: string;
  readonly deliveredAt: string | null;
  readonly attempts: number;
}

/** A state change, written with its events and effects in one transaction. */
export interface StateChange {
  readonly from: RunStateName;
  readonly to: RunStateName;
  readonly via: Via;
  readonly at: string;
  readonly meters?: Meters;
  readonly amendments?: readonly BudgetAmendment[];
  /** Set when entering `paused`. */
  readonly pausedFrom?: LiveState;
  readonly events?: readonly LoopEventInput[];
  readonly effects?: ReadonlyArray<{
    readonly deliveryId: string;
    readonly payload: Readonly<Record<string, unknown>>;
  }>;
  /** A watch tick's source cursor, stored with the tick so an item is never lost nor polled twice. */
  readonly cursor?: WatchCursor;
}

export interface RegisteredLoop {
  readonly loopId: string;
  readonly file: string;
  readonly name: string;
  readonly kind: LoopKind;
  readonly updatedAt: string;
}

export interface WatchCursor {
  readonly loopId: string;
  readonly cursor: string | null;
  readonly lastSuccessAt: string;
}

export type AdmitResult =
  | { readonly kind: "admitted"; readonly run: LoopRunRecord }
  | { readonly kind: "duplicate"; readonly run: LoopRunRecord }
  | { readonly kind: "refused"; readonly message: string; readonly liveRunId: string };

export interface RunFilter {
  readonly loopId?: string;
  readonly live?: boolean;
  readonly states?: readonly RunStateName[];
  readonly limit?: number;
}
