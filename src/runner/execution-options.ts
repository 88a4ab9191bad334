import type { Checkpointer } from "../checkpoint/index.ts";
import type { EventListener, LoopStopPredicate } from "../engine/index.ts";
import type { RefusalCode } from "../events/refusals.ts";
import type { RunOutcome } from "../events/run-outcome.ts";
import type { ValidationIssue } from "../hank/issues.ts";
import type { HeldPrompts } from "../hank/prompt.ts";
import type { ValidationReport } from "../hank/validate/index.ts";
import type { HarnessRegistry, ToolSettings } from "../harness/harness.ts";
import type { RunState } from "../journal/index.ts";
import type { TracingOptions } from "../observability/index.ts";
import type { ExecutionPlan } from "../plan/index.ts";
import type { Clock } from "../util/clock.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";

/**
 * What a caller (the CLI, the test kit, the bench, a library user, later the server and the daemon)
 * asks of one execution. Only `hank` is required; every other field has the CLI's default.
 */
export interface ExecutionOptions {
  /** A hank .json file or a directory holding hank.json, absolute or relative to `cwd`. */
  readonly hank: string;
  /** The data source (linked read-only into the workspace). Default: the hank's directory. */
  readonly data?: string;
  /** Default: `process.cwd()`. */
  readonly cwd?: string;
  /** The runtime's environment; agents get it with the HANKWEAVE_ overlay. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Every codon's model (`-m`), e.g. `scripted` for an offline dry run. */
  readonly model?: string;
  /** An execution directory to resume (`-e`). Default: the latest execution of this hank and data. */
  readonly execution?: string;
  readonly startNew?: boolean;
  /**
   * Start a new run from the first codon even when this execution has run (or finished) before: a
   * Loop's next generation. The workspace carries over; the earlier runs' codons do not count for it.
   */
  readonly newRun?: boolean;
  readonly force?: boolean;
  /** With `startNew` and `force` on an existing execution: keep its `agentRoot/` (`--no-wipe`). */
  readonly noWipe?: boolean;
  readonly yes?: boolean;
  /** Copy the data into the workspace instead of linking it. */
  readonly copy?: boolean;
  /**
   * Answers a yes/no question about the execution (an edited hank on the same data...). Default: no
   * question can be answered, so such a start fails closed with a message saying which flag decides.
   */
  readonly confirm?: (question: string, timeoutMs: number) => Promise<boolean>;
  /** No client can answer a parked run; a retriable failure under `abort` fails it. Default: true. */
  readonly headless?: boolean;
  readonly maxCostUsd?: number;
  readonly maxTimeSeconds?: number;
  /**
   * Seconds an agent may stay silent before its session is stopped (`--shim-idle-timeout`), below the
   * codon's and the hank's own. Not the server's client idle timeout (`clientIdleTimeoutSeconds`).
   */
  readonly agentIdleTimeoutSeconds?: number;
  /** Where `outputFiles` go (absolute); outputs are skipped without it. */
  readonly outputDir?: string;
  readonly overwriteOutput?: boolean;
  readonly ignoreRigFailures?: boolean;
  /** Cancels the run: the current session is stopped and the run ends `aborted`. */
  readonly signal?: AbortSignal;
  /** Default: the system clock. */
  readonly clock?: Clock;
  /** Run ids. Default: random UUIDs. */
  readonly newId?: () => string;
  /** Caller-supplied loop stop rules, tried after the built-in ones (see `LoopStopPredicate`). */
  readonly stopRules?: readonly LoopStopPredicate[];
  /**
   * Loop codons (by config id) that keep a session across iterations rather than start a fresh one
   * (a reviewer that remembers what it already said), each with its session group: codons of one
   * group share one session.
   */
  readonly continueOwnSession?: Readonly<Record<string, string>>;
  /**
   * Tool settings of codons, by config id (the `tools` of a `loop()` agent): the codon's sessions get
   * only these tools, and a harness that cannot restrict tools refuses the session. Not a hank field.
   */
  readonly codonTools?: Readonly<Record<string, ToolSettings>>;
  /**
   * Prompt files the caller holds in memory (a durable `loop()`'s step inputs, which it also writes to
   * their files): read from here instead of the disk. Not a hank field.
   */
  readonly heldPrompts?: HeldPrompts;
  /** Called inline after every journaled event (the progress printer); must be fast. */
  readonly listeners?: readonly EventListener[];
  /**
   * Runs every codon on this registry instead of the harnesses its model names (`--replay`: the
   * replay harness answers from a recording). No model is called, so the models' start-up self-tests
   * are skipped.
   */
  readonly harnesses?: HarnessRegistry;
  /** The workspace checkpoints. Default: the git store inside the execution. */
  readonly checkpointer?: (layout: ExecutionLayout, clock: Clock) => Checkpointer;
  /**
   * Called once the execution directory is open and locked, before the run starts, with what opening
   * it noticed (a resumed execution, a replaced data link...): the CLI prints them.
   */
  readonly onOpened?: (layout: ExecutionLayout, notes: readonly string[]) => void;
  /**
   * fsync the journal at every codon boundary (`--durable`), so what a boundary journaled survives an OS
   * crash or power loss, not only a killed process. Default: `HANKWEAVE_RUNTIME_DURABLE_JOURNAL` (1 or
   * true), else false (the OS writes the journal back when it decides).
   */
  readonly durableJournal?: boolean;
  /** The port of the server that serves this run, written into `runtime.lock` so `--attach` finds it. */
  readonly port?: number;
  /**
   * OpenTelemetry tracing of the run through the caller's own provider. Without it the run is traced
   * only when the `OTEL_*` variables (or `HANKWEAVE_OTEL`) in `env` ask for it (docs/observability.md).
   */
  readonly tracing?: TracingOptions;
  /** Written into execution-meta.json: the runtime version and the command line that started it. */
  readonly runtime?: { readonly version: string; readonly argv: readonly string[] };
}

/** How a request for an execution ended. `exitCode` is what a CLI process exits with. */
export type ExecutionResult =
  | {
      /** The hank could not be loaded or is invalid; nothing was created. */
      readonly kind: "invalid";
      readonly exitCode: 1;
      readonly hankPath: string;
      readonly loadIssue?: ValidationIssue;
      readonly position?: { readonly line: number; readonly column: number; readonly offset: number };
      readonly report?: ValidationReport;
    }
  | {
      /** The run could not start (git missing, self-test, execution refused, lock held...). */
      readonly kind: "refused";
      readonly exitCode: 1;
      /** Why, as a code to decide on; `message` says it to a person. */
      readonly code: RefusalCode;
      readonly message: string;
      readonly layout?: ExecutionLayout;
    }
  | {
      /** The execution had already completed every codon. */
      readonly kind: "nothing-to-do";
      readonly exitCode: 0;
      readonly layout: ExecutionLayout;
      readonly state: RunState;
      readonly message: string;
    }
  | {
      readonly kind: "ran";
      readonly exitCode: 0 | 1;
      readonly layout: ExecutionLayout;
      readonly runId: string;
      readonly outcome: RunOutcome;
      readonly message: string;
      readonly state: RunState;
      readonly plan: ExecutionPlan;
    };

/** The environment's default for `durableJournal` (`--durable`): 1 or true. */
export const DURABLE_JOURNAL_ENV = "HANKWEAVE_RUNTIME_DURABLE_JOURNAL";

export function wantsDurableJournal(
  options: Pick<ExecutionOptions, "durableJournal">,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (options.durableJournal !== undefined) return options.durableJournal;
  const value = env[DURABLE_JOURNAL_ENV];
  return value === "1" || value === "true";
}
