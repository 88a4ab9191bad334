import type { RunOutcome } from "../events/run-outcome.ts";
import type { ResolvedModel } from "../hank/models/index.ts";
import type { HeldPrompts } from "../hank/prompt.ts";
import type { Codon, HankFile } from "../hank/schema/index.ts";
import type { FailureReason } from "../harness/failure-reason.ts";
import type { HarnessRegistry, ToolSettings } from "../harness/harness.ts";
import type { ExecutionPlan, PlannedCodon } from "../plan/index.ts";
import type { Clock } from "../util/clock.ts";
import type { LoopStopPredicate } from "./loop/loop-stop-predicate.ts";
import type { EventSink } from "./run/event-sink.ts";
import type { RunControl } from "./run/run-control.ts";

/** Run-wide settings that come from the command line or the library caller. */
export interface EngineOptions {
  /** No interactive client can retry a parked codon: a retriable failure under `abort` fails the run. */
  readonly headless: boolean;
  /** `--max-cost`: replaces the hank's dollar ceiling. */
  readonly maxCostUsd?: number;
  /** `--max-time`: replaces the hank's time ceiling, in seconds. */
  readonly maxTimeSeconds?: number;
  /** `--shim-idle-timeout`: the agent's idle timeout in seconds, below codon and hank overrides. */
  readonly agentIdleTimeoutSeconds?: number;
}

/** Everything the engine runs on. Validation has already passed. */
export interface EngineInput {
  /** The validated hank, with any model override applied. */
  readonly hank: HankFile;
  readonly hankDir: string;
  /** Resolved models by the id written in the (overridden) hank. */
  readonly models: ReadonlyMap<string, ResolvedModel>;
  /** The agent's working directory. */
  readonly agentRoot: string;
  /** The runtime's environment; each codon's agent gets it with the HANKWEAVE_ overlay and its `env`. */
  readonly processEnv: Readonly<Record<string, string | undefined>>;
  readonly options: EngineOptions;
  /** The persisted plan of an earlier run of this execution; a new plan is built when absent. */
  readonly plan?: ExecutionPlan;
  /** Caller-supplied loop stop rules, asked in order after the built-in rules. */
  readonly stopRules?: readonly LoopStopPredicate[];
  /**
   * Loop codons that keep a session across iterations (a reviewer that remembers its remarks) instead
   * of starting fresh, by config id, each with its session group: codons of one group share one
   * session (one agent listed twice). `continue-previous` codons are unaffected.
   */
  readonly continueOwnSession?: ReadonlyMap<string, string>;
  /**
   * Tool settings of codons, by config id (a library agent's `tools`): every session of the codon
   * carries them in `SessionRequest.tools`. Not a hank field: hank files stay the reference format.
   */
  readonly codonTools?: ReadonlyMap<string, ToolSettings>;
  /** Prompt files held in memory (a transient loop's step inputs), read instead of the disk. */
  readonly heldPrompts?: HeldPrompts;
}

/** What a workspace hook gets to know about the codon it acts for. */
export interface CodonContext {
  readonly entry: PlannedCodon;
  readonly codon: Codon;
  readonly runId: string;
  readonly attempt: number;
}

export type HookResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

/**
 * Plug-in points for the workspace (rig setup, checkpoints, outputs, archives, snapshots). The engine
 * calls them at the codon boundaries and records what they report; it never does their work itself.
 */
export interface EngineHooks {
  /** Before the first codon: e.g. start the run's checkpoint branch. A failure fails the run. */
  startRun?(runId: string): Promise<HookResult>;
  /** Rig setup, before the agent starts (status `preparing`). A failure fails the attempt there. */
  prepareCodon?(context: CodonContext, signal: AbortSignal): Promise<HookResult>;
  /** After an attempt ended: checkpoint, outputs and archive on success. A failure fails the run. */
  finishCodon?(
    context: CodonContext & { readonly success: boolean; readonly changedPaths: readonly string[] | null },
  ): Promise<HookResult>;
  /** After a loop ended (loop archives). A failure fails the run. */
  finishLoop?(loop: {
    readonly loopId: string;
    readonly iteration: number;
    readonly runId: string;
  }): Promise<HookResult>;
  /** At every codon boundary: persist the plan and state snapshot. */
  persist?(plan: ExecutionPlan): void;
}

export type SentinelLoad = { readonly ok: true } | { readonly ok: false; readonly reason: FailureReason };

/**
 * The observers of a codon (its sentinels, `src/sentinels/`). The engine loads them at the start of
 * each attempt (a no-op once loaded: they observe the codon across retries), drains them when the
 * codon ends (status `completing-sentinels` after a success), and unloads them once the codon's
 * `codon.completed` is journaled (a second drain first, so triggers on that event fire).
 */
export interface SentinelHost {
  /** A load the codon cannot run without fails the attempt with `sentinel-load-failure`. */
  load(context: CodonContext): Promise<SentinelLoad>;
  /** Sends what the strategies hold back and waits until every queued trigger has run. */
  drain(codonId: string): Promise<void>;
  /** `codon-complete` drains first; `shutdown` (a cancelled run) drops what waits. */
  unload(codonId: string, reason: "codon-complete" | "shutdown"): Promise<void>;
}

export interface EngineDeps {
  readonly clock: Clock;
  readonly newId: () => string;
  readonly sink: EventSink;
  readonly harnesses: HarnessRegistry;
  /** Cancels the run: the current session is stopped and the run ends `aborted`. */
  readonly signal: AbortSignal;
  readonly hooks?: EngineHooks;
  /** The run's inbox: pause, resume, skip, redo, start, retry and stop, read at codon boundaries. */
  readonly control?: RunControl;
  /** Runs the codons' sentinels; codons run without them when absent. */
  readonly sentinels?: SentinelHost;
}

/** How a run ended. `aborted` is a delivered cancel or stop; crash recovery writes `interrupted`, never us. */
export interface RunResult {
  readonly runId: string;
  readonly status: Exclude<RunOutcome, "interrupted">;
  readonly exitCode: 0 | 1;
  readonly message: string;
  readonly plan: ExecutionPlan;
}
