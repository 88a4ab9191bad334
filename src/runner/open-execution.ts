import { homedir } from "node:os";
import type { RefusalCode } from "../events/refusals.ts";
import {
  CONFIRM_TIMEOUT_MS,
  chooseExecution,
  currentHost,
  DEFAULT_DATA_HASH_TIME_LIMIT_MS,
  type ExecutionConfirm,
  executionBaseDir,
  hankHashOf,
  hashDataSource,
  inspectExecutionTarget,
  listExecutions,
  prepareExecution,
  randomSuffix,
  settleConfirmation,
} from "../workspace/execution/index.ts";
import type { ExecutionLayout } from "../workspace/execution-layout.ts";

export interface OpenExecutionInput {
  readonly hankPath: string;
  readonly hankText: string;
  /** The hank's codon ids (loop codons included): recorded, and compared when the hank changed. */
  readonly codonIds?: readonly string[];
  readonly dataPath: string;
  readonly dataHashTimeLimitMs?: number;
  readonly execution?: string;
  readonly startNew: boolean;
  readonly force: boolean;
  readonly noWipe: boolean;
  readonly yes: boolean;
  readonly copy: boolean;
  /** Answers a yes/no question; absent, no question can be asked and a start that needs one fails closed. */
  readonly confirm?: (question: string, timeoutMs: number) => Promise<boolean>;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly version: string;
  readonly argv: readonly string[];
  readonly now: () => number;
}

export type OpenedExecution =
  | {
      readonly ok: true;
      readonly layout: ExecutionLayout;
      readonly resumed: boolean;
      readonly notes: readonly string[];
    }
  | { readonly ok: false; readonly code: RefusalCode; readonly message: string };

/**
 * Finds or creates the execution directory of this start (reference 1.1 and 1.13): hashes the data and
 * the hank, applies the safety tiers and resume rules (pure `chooseExecution`), asks when it must and
 * can, then lays the directory out. Nothing is created before every check has passed.
 */
export async function openExecution(input: OpenExecutionInput): Promise<OpenedExecution> {
  const hashed = await hashDataSource(input.dataPath, {
    timeLimitMs: input.dataHashTimeLimitMs ?? DEFAULT_DATA_HASH_TIME_LIMIT_MS,
    clock: { now: input.now },
  });
  if (!hashed.ok) return { ok: false, code: "execution-refused", message: hashed.message };
  const hankHash = hankHashOf(input.hankText);
  const baseDir = executionBaseDir({ env: input.env, homeDir: homedir(), cwd: input.cwd });
  const target = input.execution === undefined ? undefined : inspectExecutionTarget(input.execution, baseDir);
  if (target !== undefined && !target.ok)
    return { ok: false, code: "execution-refused", message: target.message };
  const choice = chooseExecution({
    intent: {
      ...(input.execution !== undefined && { execution: input.execution }),
      startNew: input.startNew,
      force: input.force,
      noWipe: input.noWipe,
      yes: input.yes,
      interactive: input.confirm !== undefined,
    },
    baseDir,
    ...(target?.ok === true && { target: target.facts }),
    // Every execution's meta is read to find one to resume: only a start without -e needs them.
    existing: input.execution === undefined ? listExecutions(baseDir).executions : [],
    dataSourcePath: input.dataPath,
    dataHash: hashed.value.hash,
    hankHash,
    hankPath: input.hankPath,
    ...(input.codonIds !== undefined && { codonIds: input.codonIds }),
    now: input.now(),
    randomSuffix: randomSuffix(),
  });
  const plan = choice.kind === "confirm" ? settleConfirmation(choice, await ask(input, choice)) : choice;
  if (plan.kind === "refuse") return { ok: false, code: plan.code, message: plan.message };
  const prepared = await prepareExecution({
    plan,
    dataPath: input.dataPath,
    dataHash: hashed.value,
    hankPath: input.hankPath,
    hankHash,
    ...(input.codonIds !== undefined && { codonIds: input.codonIds }),
    copy: input.copy,
    now: input.now(),
    host: currentHost(input.version, input.argv),
    pid: process.pid,
  });
  if (!prepared.ok) return { ok: false, code: "execution-refused", message: prepared.message };
  return { ok: true, layout: prepared.layout, resumed: plan.kind === "resume", notes: prepared.notes };
}

/** Asks the caller; no answer within the timeout counts as "no" (fail closed). */
async function ask(input: OpenExecutionInput, confirm: ExecutionConfirm): Promise<boolean> {
  if (input.confirm === undefined) return false;
  return input.confirm(confirm.question, confirm.timeoutMs ?? CONFIRM_TIMEOUT_MS);
}
