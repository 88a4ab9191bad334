import type { RunActivity } from "../journal/run-activity.ts";
import type { ExecutionOptions, ExecutionResult } from "../runner/index.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";
import { CLEAN_SHUTDOWN_REASONS, MESSAGES } from "./protocol.ts";

/** Where the served execution is: not started, a run going, between runs, rolling back, stopping, over. */
export type HostPhase = "waiting" | "live" | "ended" | "rolling-back" | "closing" | "closed";

/** How serving an execution ended, and the exit code a process would use. */
export interface HostEnd {
  readonly exitCode: 0 | 1;
  /** `run ended`, `rolled back`, or the shutdown's reason (`client request`, `SIGINT`...). */
  readonly reason: string;
  /** The last run's result; undefined when none settled. */
  readonly result: ExecutionResult | undefined;
  /** A force shutdown: the last run may still be winding down. */
  readonly forced: boolean;
}

export interface LiveExecutionOptions {
  /** The run's options; the host adds its own cancel signal and the server's port. */
  readonly execution: ExecutionOptions;
  /**
   * Keep serving once the run has ended (the TUI): a rollback or `codon.next` then starts another run
   * on the same execution. Otherwise the host ends with the run.
   */
  readonly stayOpen: boolean;
  /**
   * Serve this execution as it stands, read-only (`hankweave view`): its journal is the history, no
   * run starts, and every client is read-only whatever it asks. The host stays until shut down.
   */
  readonly view?: ExecutionLayout;
}

/** Why a rollback cannot start in this phase and status, or undefined when it can. Pure. */
export function rollbackRefusal(phase: HostPhase, status: RunActivity): string | undefined {
  switch (phase) {
    case "rolling-back":
      return MESSAGES.rollbackInProgress;
    case "waiting":
    case "closing":
    case "closed":
      return "The execution is not open for a rollback";
    case "ended":
      return undefined;
    case "live": {
      const codonRunning = status.running?.id;
      if (status.parked !== undefined && codonRunning === undefined) return undefined;
      const what =
        codonRunning === undefined ? "the run is between codons" : `codon ${codonRunning} is running`;
      return `Cannot roll back now: ${what}. Roll back once the run waits (server.idle), or stop the codon first (codon.forceStop).`;
    }
  }
}

/** A shutdown that stopped a live run exits 0 for the user's own reasons, 1 for any other. */
export function shutdownExitCode(reason: string): 0 | 1 {
  return CLEAN_SHUTDOWN_REASONS.has(reason) ? 0 : 1;
}

/**
 * One run's options: the served execution's, with the host's cancel signal and the server's port; a
 * later run continues the execution the first opened (never a new one). `onLayout` hears where it is.
 */
export function runOptions(
  base: ExecutionOptions,
  run: {
    readonly execution: string | undefined;
    readonly signal: AbortSignal;
    readonly port: number | undefined;
    readonly onLayout: (layout: ExecutionLayout) => void;
  },
): ExecutionOptions {
  return {
    ...base,
    ...(run.execution !== undefined && { execution: run.execution, startNew: false }),
    signal: run.signal,
    ...(run.port !== undefined && { port: run.port }),
    onOpened: (layout, notes) => {
      run.onLayout(layout);
      base.onOpened?.(layout, notes);
    },
  };
}
