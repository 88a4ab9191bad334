import type { JournaledEvent } from "../events/index.ts";
import type { TracingOptions } from "../observability/index.ts";
import type { Clock } from "../util/clock.ts";

/**
 * How long an agent's session lives across a loop.
 * - `"task"` (default): a fresh session at every step, so every review starts from the work alone.
 * - `"workflow"`: one session per agent for the whole loop; each step resumes the session its agent had
 *   in the previous iteration, so the coder remembers the remarks and the reviewer its own.
 */
export type Lifetime = "task" | "workflow";

export const LIFETIMES = ["task", "workflow"] as const satisfies readonly Lifetime[];

/** What a step (or a whole workflow) spent. Tokens are what the agent reported; never estimated. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  /** Dollars; 0 when the harness reports no cost. */
  readonly costUsd: number;
}

/**
 * Why a step, or the workflow, did not end well:
 * - `failed`: the agent or its provider failed (the message is the runtime's classification);
 * - `timeout`: the step ran past `timeoutMs` and was stopped;
 * - `aborted`: `signal` cancelled it;
 * - `interrupted`: the process running it died, and the step has not run again since;
 * - `budget`: the workflow's budget ran out during the step, which was stopped early;
 * - `until`: the `until` predicate threw;
 * - `refused`: the run could not start (credentials missing, a durable directory locked by another
 *   process or holding another loop...): nothing ran.
 */
export type StepErrorKind = "failed" | "timeout" | "aborted" | "interrupted" | "budget" | "until" | "refused";

export interface StepError {
  readonly kind: StepErrorKind;
  readonly message: string;
}

/** One step of work: what one agent produced from one input. */
export interface Result {
  /** The agent's name. */
  readonly agent: string;
  /** The agent's final text: what feeds the next step. */
  readonly output: string;
  /**
   * `output` is the first part of a longer text: the runtime keeps at most `RESULT_TEXT_LIMIT`
   * characters of a result (the full messages are in the journal's `assistant.action` events).
   */
  readonly truncated: boolean;
  /** What this step spent (its interrupted attempts included). */
  readonly usage: Usage;
  /** The step ran to its end without error. */
  readonly ok: boolean;
  /** Set when `ok` is false. */
  readonly error?: StepError;
  /** 1-based iteration of the loop this step belongs to. */
  readonly iteration: number;
  /** 0-based position of the step in `steps`. */
  readonly step: number;
  /** The step's runtime id in the journal (`coder#0`: config id, `#`, 0-based iteration). */
  readonly codonId: string;
}

/** Ceilings for the whole workflow. Exceeding one ends it with `endCause: "budget"`, never converged. */
export interface WorkflowBudget {
  /**
   * Input, output and cache tokens of every step, checked when a step ends: the step that crosses the
   * line finishes, and no further step starts.
   */
  readonly tokens?: number;
  /** Dollars, enforced by the runtime's budget meter as usage is reported: the step is stopped there. */
  readonly dollars?: number;
  /** Wall-clock seconds, enforced by the runtime's budget meter: the running step is stopped there. */
  readonly seconds?: number;
}

/**
 * A journal and workspace checkpoints in `dir`, so that the workflow survives its process: calling it
 * again with the same `dir` (and the same arguments) continues after the last completed step.
 */
export interface DurableOptions {
  /**
   * The loop's directory: `loop/` holds the generated hank and every step's stored input, `run/` is the
   * runner's execution directory (its journal and checkpoints in `run/.hankweave/`, the agents'
   * workspace in `run/agentRoot/`).
   */
  readonly dir: string;
}

/** Options every workflow takes. */
export interface WorkflowOptions {
  /** Default `"task"`: memory across iterations is asked for, never assumed. */
  readonly lifetime?: Lifetime;
  /** Cancels the workflow: the running step is stopped and ends `aborted`, and the result says so. */
  readonly signal?: AbortSignal;
  /**
   * Deadline of each step, in milliseconds. No default: a step may legitimately run for an hour, but
   * with a deadline it cannot hang forever. A step past it is stopped and fails with `timeout`.
   */
  readonly timeoutMs?: number;
  /**
   * Where the agents work (default `process.cwd()`). With `durable` they work in the durable workspace
   * instead, and `cwd` (when given) is linked into it read-only at `read_only_data_source/`.
   */
  readonly cwd?: string;
  /** The environment agents get (with the runtime's `HANKWEAVE_` pass-through). Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly budget?: WorkflowBudget;
  /** Every journaled event, as it happens (the journal's format). Called inline: keep it fast. */
  readonly onEvent?: (event: JournaledEvent) => void;
  readonly durable?: DurableOptions;
  /** Replaces every agent's model, e.g. `"scripted"` for a free dry run of the same workflow. */
  readonly model?: string;
  /** The runtime's clock (default: the system clock); tests pass a fake clock and never sleep. */
  readonly clock?: Clock;
  /**
   * OpenTelemetry tracing through the caller's own provider, or `{ enabled: true }`; without it the
   * workflow is traced only when the `OTEL_*` variables of `env` ask for it (docs/observability.md).
   */
  readonly tracing?: TracingOptions;
}

/** How a workflow went: the last step's answer, every step, and the total spend. */
export interface WorkflowResult {
  /** The last step ran without error (and the workflow could start). */
  readonly ok: boolean;
  /** The last step's agent (the first step's when nothing ran). */
  readonly agent: string;
  /** The last step's output ("" when nothing ran). */
  readonly output: string;
  /** Set when `ok` is false. */
  readonly error?: StepError;
  /** Every step that ran, in order. */
  readonly steps: readonly Result[];
  /** The sum over `steps`. */
  readonly usage: Usage;
  /** The directory the agents worked in. */
  readonly workspace: string;
  /** With `durable`: the journal (`events.jsonl`), every event of every call. */
  readonly journal?: string;
}
