import type { RigOp } from "../../hank/schema/index.ts";
import type { ProcessClock } from "../process/process-clock.ts";
import { runCommandOp } from "./rig-command-op.ts";
import { runCopyOp } from "./rig-copy-op.ts";
import type { RigEvent, RigFailureType, RigSetupCompletedData } from "./rig-events.ts";
import type { RigOpOutcome } from "./rig-op-outcome.ts";

export interface RigSetupInput {
  /** Runtime codon id (`edit#0` inside loops); used in every event. */
  readonly codonId: string;
  /** Shown in the closing narration; the codon id when absent. */
  readonly codonName?: string;
  readonly ops: readonly RigOp[];
  readonly hankDir: string;
  readonly agentRoot: string;
  /** The complete environment of rig commands (see buildAgentEnv); nothing else is inherited. */
  readonly env: Readonly<Record<string, string>>;
  /** `--ignore-rig-failures`: every failing operation is reported and skipped. */
  readonly ignoreRigFailures: boolean;
  /** Stops a command after this long (failure type `timeout`); no limit when absent. */
  readonly commandTimeoutMs?: number;
  /**
   * When true, `rig.setup.completed` is not emitted; the caller emits `result.completed` itself
   * after committing the rig-setup checkpoint, with `createdCheckpoint` set to what happened.
   */
  readonly deferCompletion?: boolean;
}

export interface RigSetupDeps {
  readonly clock: ProcessClock;
  readonly emit: (event: RigEvent) => void;
  /** Aborting kills the running command's process group and ends the setup (`aborted`). */
  readonly signal: AbortSignal;
  readonly killGraceMs?: number;
}

export interface RigFailure {
  /** Index of the operation in `ops` (the events' `commandIndex`). */
  readonly commandIndex: number;
  readonly opType: RigOp["type"];
  readonly failureType: RigFailureType;
  /** A sentence naming what failed, e.g. `Command failed with exit code 1: npm ci`. */
  readonly message: string;
  readonly exitCode?: number;
  readonly outputTail: readonly string[];
  readonly ignored: boolean;
  /** Why an ignored failure did not stop the setup. */
  readonly ignoredBecause?: "allowFailure" | "ignoreRigFailures";
}

export interface RigSetupResult {
  /** Every operation succeeded or had its failure ignored, and no abort came. */
  readonly ok: boolean;
  readonly aborted: boolean;
  /** In order; when `ok` is false and not aborted, the last one stopped the setup. */
  readonly failures: readonly RigFailure[];
  /** Absolute target of the latest successful copy, or null. */
  readonly lastCopied: string | null;
  /** Entries the copies left out, hank-relative (directories end in `/`). */
  readonly excluded: readonly string[];
  readonly durationMs: number;
  /** The `rig.setup.completed` payload when `ok` (emitted unless `deferCompletion`), else null. */
  readonly completed: RigSetupCompletedData | null;
}

/**
 * Prepares the agent workspace before a codon starts (reference 1.5): runs the operations in order,
 * each to its end. A failing operation stops the setup unless it has `allowFailure` or
 * `ignoreRigFailures` is set; either way it is reported with `rig.setup.failed` (`ignored` telling
 * which). Narration goes out as `info` events ("Rig operation 1/2: ...", "Rig setup completed for
 * codon ..."), an ignored failure also as a non-fatal `error` event. The fatal report and the
 * failure policy belong to the caller, which gets the failure in the result. Never throws for
 * anything the hank or the commands did.
 */
export async function runRigSetup(input: RigSetupInput, deps: RigSetupDeps): Promise<RigSetupResult> {
  const startedAt = deps.clock.now();
  const state: RunState = { failures: [], lastCopied: null, excluded: [], succeeded: 0 };
  const finish = (
    ok: boolean,
    aborted: boolean,
    completed: RigSetupCompletedData | null,
  ): RigSetupResult => ({
    ok,
    aborted,
    failures: state.failures,
    lastCopied: state.lastCopied,
    excluded: state.excluded,
    durationMs: deps.clock.now() - startedAt,
    completed,
  });
  for (const [index, op] of input.ops.entries()) {
    if (deps.signal.aborted) return finish(false, true, null);
    info(deps, `Rig operation ${index + 1}/${input.ops.length}: ${describeOp(op)}`);
    const outcome = await runOp(op, index, input, deps, state.lastCopied);
    if (outcome.kind === "aborted") return finish(false, true, null);
    if (outcome.kind === "done") {
      record(outcome, state, deps);
      continue;
    }
    const failure = reportFailure(op, index, outcome, input, deps);
    state.failures.push(failure);
    if (!failure.ignored) return finish(false, false, null);
  }
  const durationMs = deps.clock.now() - startedAt;
  info(deps, completionMessage(input, durationMs, state));
  const completed = completionData(input, durationMs);
  if (input.deferCompletion !== true) deps.emit({ type: "rig.setup.completed", data: completed });
  return { ...finish(true, false, completed), durationMs };
}

interface RunState {
  failures: RigFailure[];
  lastCopied: string | null;
  excluded: string[];
  succeeded: number;
}

function runOp(
  op: RigOp,
  index: number,
  input: RigSetupInput,
  deps: RigSetupDeps,
  lastCopied: string | null,
): Promise<RigOpOutcome> {
  if (op.type === "copy") {
    return runCopyOp(op.copy, { hankDir: input.hankDir, agentRoot: input.agentRoot, signal: deps.signal });
  }
  const cwd =
    op.command.workingDirectory === "lastCopied" && lastCopied !== null ? lastCopied : input.agentRoot;
  return runCommandOp(op.command.run, {
    codonId: input.codonId,
    commandIndex: index,
    cwd,
    env: input.env,
    clock: deps.clock,
    signal: deps.signal,
    emit: deps.emit,
    ...(input.commandTimeoutMs === undefined ? {} : { timeoutMs: input.commandTimeoutMs }),
    ...(deps.killGraceMs === undefined ? {} : { killGraceMs: deps.killGraceMs }),
  });
}

function record(outcome: Extract<RigOpOutcome, { kind: "done" }>, state: RunState, deps: RigSetupDeps): void {
  state.succeeded++;
  if (outcome.copiedTo !== undefined) state.lastCopied = outcome.copiedTo;
  if (outcome.excluded === undefined) return;
  state.excluded.push(...outcome.excluded.entries);
  info(deps, excludedMessage(outcome.excluded.entries, outcome.excluded.source));
}

function reportFailure(
  op: RigOp,
  index: number,
  outcome: Extract<RigOpOutcome, { kind: "failed" }>,
  input: RigSetupInput,
  deps: RigSetupDeps,
): RigFailure {
  const because =
    op.allowFailure === true ? "allowFailure" : input.ignoreRigFailures ? "ignoreRigFailures" : null;
  const ignored = because !== null;
  deps.emit({
    type: "rig.setup.failed",
    data: {
      codonId: input.codonId,
      failureType: outcome.failureType,
      ...(outcome.exitCode === undefined ? {} : { exitCode: outcome.exitCode }),
      commandIndex: index,
      ignored,
    },
  });
  if (because !== null) {
    const reason = because === "allowFailure" ? "allowFailure=true" : "--ignore-rig-failures";
    deps.emit({
      type: "error",
      data: {
        message: `Rig setup operation failed but continuing (${reason}): ${outcome.message}`,
        codon: input.codonId,
        fatal: false,
        severity: "operation",
        context: `Codon ${input.codonId} - ${op.type} operation (item ${index + 1})`,
      },
    });
  }
  return {
    commandIndex: index,
    opType: op.type,
    failureType: outcome.failureType,
    message: outcome.message,
    ...(outcome.exitCode === undefined ? {} : { exitCode: outcome.exitCode }),
    outputTail: outcome.outputTail,
    ignored,
    ...(because === null ? {} : { ignoredBecause: because }),
  };
}

function describeOp(op: RigOp): string {
  return op.type === "copy" ? `copy ${op.copy.from} → ${op.copy.to}` : `command '${op.command.run}'`;
}

/** At most this many excluded entries are named in the narration; all of them are in the result. */
const NAMED_EXCLUSIONS = 10;

function excludedMessage(entries: readonly string[], source: string): string {
  const named = entries.slice(0, NAMED_EXCLUSIONS).join(", ");
  const more = entries.length > NAMED_EXCLUSIONS ? `, and ${entries.length - NAMED_EXCLUSIONS} more` : "";
  return `Rig copy excluded ${entries.length} ${entries.length === 1 ? "entry" : "entries"} (${source}): ${named}${more}`;
}

function completionMessage(input: RigSetupInput, durationMs: number, state: RunState): string {
  const failed = state.failures.length > 0 ? `, ${state.failures.length} failed` : "";
  const name = input.codonName ?? input.codonId;
  return `Rig setup completed for codon '${name}' (${durationMs}ms, ${state.succeeded} succeeded${failed})`;
}

function completionData(input: RigSetupInput, durationMs: number): RigSetupCompletedData {
  return {
    codonId: input.codonId,
    rigType: input.ops.length === 1 ? "command" : "commands",
    commandCount: input.ops.length,
    durationMs,
    createdCheckpoint: false,
  };
}

function info(deps: RigSetupDeps, message: string): void {
  deps.emit({ type: "info", data: { message } });
}
