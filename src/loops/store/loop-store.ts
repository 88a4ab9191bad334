import type { LoopEventDataInput, LoopEventType } from "../../events/loop-events.ts";
import type {
  AdmitResult,
  Effect,
  GenerationRecord,
  LiveRunLease,
  LoopCommand,
  LoopEvent,
  LoopRunRecord,
  NewRun,
  RegisteredLoop,
  RunFilter,
  StateChange,
  StoredCommand,
  StoredMessage,
  WatchCursor,
} from "./store-records.ts";

/** One run's lease asked for by a driver, and the dead owner it may take it from (see `acquireLease`). */
export interface LeaseClaim {
  readonly runId: string;
  readonly owner: string;
  readonly takeOverFrom?: string;
}

/**
 * The loop store contract: runs, generations, verdicts, meters, the inbox, operator commands, an
 * append-only loop-run event log and an outbox of effects, written transactionally. SQLite (embedded,
 * the default) implements it in `daemon/`; `runLoopStoreConformance` (`hankweave/testing`) is the suite
 * every implementation must pass, so a PostgreSQL store can follow.
 *
 * Drivers and fencing: exactly one driver holds a run's lease. Acquiring a lease bumps the run's
 * fencing token; every driver write names its token, and a write with a token that is no longer the
 * run's rejects with `LeaseLostError`, so a driver that was replaced can never write again. Verbs
 * (notes, commands) need no lease: they only append, and the driver applies them at boundaries.
 *
 * Every method is async so that a networked store fits; reads return copies.
 */
export interface LoopStore {
  /**
   * Admits a run in one transaction: a run with the same loop and key already there is returned as a
   * `duplicate`; otherwise the loop's concurrency decides (`forbid` refuses while a sibling is live,
   * `queue` stores it `queued`, `allow` starts it). The first state is `initial` unless queued.
   */
  admitRun(
    run: NewRun,
    options: { readonly concurrency: "forbid" | "allow" | "queue"; readonly initial: "running" | "watching" },
  ): Promise<AdmitResult>;
  getRun(runId: string): Promise<LoopRunRecord | undefined>;
  findRunByKey(loopId: string, key: string): Promise<LoopRunRecord | undefined>;
  /** Newest first. */
  listRuns(filter?: RunFilter): Promise<LoopRunRecord[]>;
  /**
   * Every live run, oldest first (by admission, then id), as a daemon's tick needs it: one query that
   * reads a few columns, where `listRuns` would parse every run's contract and meters at every tick.
   */
  liveRunLeases(): Promise<LiveRunLease[]>;

  /**
   * Takes the run's lease for `owner` until `nowMs + ttlMs` and returns the new fencing token; null
   * while another owner holds an unexpired lease, unless that owner is `takeOverFrom` (the caller
   * checked that it is dead).
   */
  acquireLease(
    runId: string,
    owner: string,
    nowMs: number,
    ttlMs: number,
    takeOverFrom?: string,
  ): Promise<number | null>;
  /**
   * `acquireLease` for several runs in one transaction (a daemon's tick claims every run it will
   * drive at once, so the last claim does not wait behind the drives the first ones started). Returns
   * the new fencing token of each run granted; a run held by another live owner, or gone, is absent.
   */
  acquireLeases(
    claims: readonly LeaseClaim[],
    nowMs: number,
    ttlMs: number,
  ): Promise<ReadonlyMap<string, number>>;
  /** Extends the lease; false when `token` is no longer the run's. */
  renewLease(runId: string, token: number, nowMs: number, ttlMs: number): Promise<boolean>;
  releaseLease(runId: string, token: number): Promise<void>;

  /**
   * Moves the run (checked against the state table and against `change.from`), with its events and
   * effects, in one transaction. Entering a terminal state promotes the loop's oldest `queued` run to
   * `running` in the same transaction (FIFO).
   */
  transition(runId: string, token: number, change: StateChange): Promise<LoopRunRecord>;
  /** Updates the meters and amendments without moving the run. */
  updateMeters(
    runId: string,
    token: number,
    patch: Pick<StateChange, "meters" | "amendments">,
  ): Promise<void>;

  /** Inserts or replaces generation `record.number` of the run. */
  putGeneration(token: number, record: GenerationRecord): Promise<void>;
  /**
   * The run's generations in order; with `fromNumber`, only those numbered from it on (a driver reads
   * the whole history once, then only the generation it is working on: constant work per generation).
   */
  generations(runId: string, fromNumber?: number): Promise<GenerationRecord[]>;

  /** Appends one entry of the run's event log (a driver write: checks the token); returns its `seq`. */
  appendEvent<T extends LoopEventType>(
    runId: string,
    token: number,
    type: T,
    data: LoopEventDataInput<T>,
    at: string,
  ): Promise<number>;
  /**
   * Events after `afterSeq`, oldest first; every run's when `runId` is undefined. Each entry is decoded
   * (`decodeLoopEvent`): one this version does not know comes back `unrecognized`, never as an error.
   */
  events(afterSeq: number, runId?: string, limit?: number): Promise<LoopEvent[]>;

  addMessage(message: Omit<StoredMessage, "id" | "readByGeneration">): Promise<number>;
  /** Oldest first. */
  messages(runId: string): Promise<StoredMessage[]>;
  markRead(runId: string, token: number, ids: readonly number[], generation: number): Promise<void>;

  addCommand(runId: string, command: LoopCommand, at: string): Promise<number>;
  /** Unsettled commands, oldest first. */
  pendingCommands(runId: string): Promise<StoredCommand[]>;
  settleCommand(runId: string, token: number, id: number, outcome: string, at: string): Promise<void>;

  /** Undelivered effects, oldest first. */
  pendingEffects(limit?: number): Promise<Effect[]>;
  markEffect(id: number, delivered: boolean, at: string): Promise<void>;

  registerLoop(loop: RegisteredLoop): Promise<void>;
  registeredLoops(): Promise<RegisteredLoop[]>;
  getCursor(loopId: string): Promise<WatchCursor | undefined>;
  putCursor(cursor: WatchCursor): Promise<void>;

  /** Deletes a terminal run with its generations, inbox, commands and events; live runs are kept. */
  deleteRun(runId: string): Promise<boolean>;
  close(): Promise<void>;
}

export class LeaseLostError extends Error {
  readonly code = "lease-lost";
  constructor(readonly runId: string) {
    super(`Lost the lease of loop run ${runId}: another driver took it over`);
    this.name = "LeaseLostError";
  }
}

export class StaleStateError extends Error {
  readonly code = "stale-state";
  constructor(
    readonly runId: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`Loop run ${runId} is ${actual}, not ${expected}`);
    this.name = "StaleStateError";
  }
}
