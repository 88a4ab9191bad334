import { basename, join } from "node:path";
import type { OpenRefusalCode } from "../../events/refusals.ts";
import {
  baseDirRefusal,
  baseDirStartNewRefusal,
  codonChange,
  dataChangedRefusal,
  hankChangedQuestion,
  hankChangedRefusal,
  invalidStateRefusal,
  notADirectoryRefusal,
  notEmptyQuestion,
  notEmptyRefusal,
  stateExistsRefusal,
} from "./execution-messages.ts";
import type { ExecutionMeta, MetaRead } from "./execution-meta.ts";
import { newExecutionDirName } from "./execution-names.ts";
import { nestingProblem } from "./execution-nesting.ts";

/** How long an interactive confirmation waits before it counts as "no" (reference: 30 s). */
export const CONFIRM_TIMEOUT_MS = 30_000;

/** What the command line asked for. `interactive` is false for `--headless` and without a TTY. */
export interface ExecutionIntent {
  /** `-e`, absolute. */
  readonly execution?: string;
  readonly startNew: boolean;
  readonly force: boolean;
  readonly noWipe: boolean;
  readonly yes: boolean;
  readonly interactive: boolean;
}

/** What is on disk at the `-e` path (gathered by `inspectExecutionTarget`). */
export interface TargetFacts {
  readonly path: string;
  readonly kind: "absent" | "directory" | "other";
  /** The path is the executions base directory itself (compared with links resolved). */
  readonly isBaseDir: boolean;
  readonly entryCount: number;
  readonly hasStateDir: boolean;
  /**
   * `.hankweave/` holds directories only, and at most the temporary file of a meta write that was cut
   * (no journal, snapshot, checkpoint, lock or log file): a start killed while it laid the execution
   * out, before `execution-meta.json` was in place. Only looked at when the meta is missing; absent
   * means it holds records.
   */
  readonly stateRecordsNothing?: boolean;
  readonly meta: MetaRead;
}

export interface ExistingExecution {
  readonly dir: string;
  readonly meta: ExecutionMeta;
}

export interface ChooseExecutionInput {
  readonly intent: ExecutionIntent;
  readonly baseDir: string;
  /** Required when `intent.execution` is set. */
  readonly target?: TargetFacts;
  /**
   * The executions found in the base directory, among which a start without `-e` resumes; only read
   * then (an explicit `intent.execution` never looks at them, so a caller may pass none).
   */
  readonly existing: readonly ExistingExecution[];
  /**
   * The data source (absolute, links resolved), for the nesting rule. The check here compares paths as
   * given; `prepareExecution` repeats it on resolved paths before touching anything.
   */
  readonly dataSourcePath: string;
  readonly dataHash: string;
  readonly hankHash: string;
  readonly hankPath: string;
  /** The hank's codon ids, to say what an edit added or removed. */
  readonly codonIds?: readonly string[];
  readonly now: number;
  readonly randomSuffix: string;
}

/**
 * A plan the preparer can carry out. `create` may reuse an existing directory: `backupState` moves its
 * `.hankweave/` aside first and `wipeAgentRoot` empties `agentRoot/`. `resume` continues an execution;
 * whether anything is left to do is the engine's call (it reads the run state and may answer
 * "nothing to do").
 */
export type ExecutionPlan =
  | {
      readonly kind: "create";
      readonly dir: string;
      readonly backupState: boolean;
      readonly wipeAgentRoot: boolean;
    }
  | {
      readonly kind: "resume";
      readonly dir: string;
      readonly meta: ExecutionMeta;
      readonly hankChanged: boolean;
      readonly dataChanged: boolean;
    };

export type RefusalCode = OpenRefusalCode;

export interface ExecutionRefusal {
  readonly kind: "refuse";
  readonly code: RefusalCode;
  readonly message: string;
}

/** Ask the user `question` (yes/no, `timeoutMs`); yes → `onYes`, no or timeout → `onNo`. */
export interface ExecutionConfirm {
  readonly kind: "confirm";
  readonly question: string;
  readonly timeoutMs: number;
  readonly onYes: ExecutionPlan;
  readonly onNo: ExecutionRefusal;
}

export type ExecutionChoice = ExecutionPlan | ExecutionConfirm | ExecutionRefusal;

/** Pure: where this start runs, following the three safety tiers and the resume rules. */
export function chooseExecution(input: ChooseExecutionInput): ExecutionChoice {
  const choice = input.intent.execution === undefined ? chooseInBaseDir(input) : chooseExplicit(input);
  return guardNesting(choice, input.dataSourcePath);
}

/** The outcome of a confirmation; a timeout counts as "no" (fail closed). */
export function settleConfirmation(
  confirm: ExecutionConfirm,
  accepted: boolean,
): ExecutionPlan | ExecutionRefusal {
  return accepted ? confirm.onYes : confirm.onNo;
}

function chooseInBaseDir(input: ChooseExecutionInput): ExecutionChoice {
  const { intent } = input;
  const latest = mostRecentMatch(input.existing, input.dataHash, input.hankPath);
  if (intent.startNew && intent.force && latest !== undefined) {
    return { kind: "create", dir: latest.dir, backupState: true, wipeAgentRoot: !intent.noWipe };
  }
  if (!intent.startNew && latest !== undefined) return resumeChecks(input, latest.dir, latest.meta);
  const name = newExecutionDirName(input.now, input.randomSuffix, input.dataHash);
  return { kind: "create", dir: join(input.baseDir, name), backupState: false, wipeAgentRoot: false };
}

function chooseExplicit(input: ChooseExecutionInput): ExecutionChoice {
  const { intent, target } = input;
  if (target === undefined) throw new Error("chooseExecution: -e given without target facts");
  const dir = target.path;
  const nested = nestingProblem(dir, input.dataSourcePath);
  if (nested !== null) return refuse("nested", nested);
  if (target.kind === "other") return refuse("not-a-directory", notADirectoryRefusal(dir));
  if (target.isBaseDir) {
    if (target.meta.status !== "ok") return refuse("base-dir", baseDirRefusal(dir));
    if (intent.startNew) return refuse("base-dir", baseDirStartNewRefusal(dir));
    return resumeChecks(input, dir, target.meta.meta);
  }
  if (target.kind === "absent" || target.entryCount === 0) {
    return { kind: "create", dir, backupState: false, wipeAgentRoot: false };
  }
  if (target.hasStateDir) return chooseOverState(input, target);
  const plan: ExecutionPlan = { kind: "create", dir, backupState: false, wipeAgentRoot: false };
  if (intent.yes) return plan;
  if (intent.interactive) {
    const onNo = refuse("not-empty", notEmptyRefusal(dir, target.entryCount, true));
    return confirm(notEmptyQuestion(dir, target.entryCount), plan, onNo);
  }
  return refuse("not-empty", notEmptyRefusal(dir, target.entryCount, false));
}

/** Tier 2: a directory with `.hankweave/` resumes, or starts over only with `--force`. */
function chooseOverState(input: ChooseExecutionInput, target: TargetFacts): ExecutionChoice {
  const { intent } = input;
  const dir = target.path;
  if (intent.startNew) {
    if (!intent.force) return refuse("state-exists", stateExistsRefusal(dir));
    return { kind: "create", dir, backupState: true, wipeAgentRoot: !intent.noWipe };
  }
  if (target.meta.status === "ok") return resumeChecks(input, dir, target.meta.meta);
  // Nothing was recorded, so nothing can be lost: lay it out again instead of wedging the execution.
  if (target.meta.status === "missing" && target.stateRecordsNothing === true)
    return { kind: "create", dir, backupState: false, wipeAgentRoot: false };
  const problem = target.meta.status === "missing" ? "it is missing" : target.meta.message;
  if (!intent.force) return refuse("invalid-state", invalidStateRefusal(dir, problem));
  return { kind: "create", dir, backupState: true, wipeAgentRoot: false };
}

function resumeChecks(input: ChooseExecutionInput, dir: string, meta: ExecutionMeta): ExecutionChoice {
  const { intent } = input;
  const dataChanged = meta.dataHash !== input.dataHash;
  if (dataChanged && !intent.force) {
    return refuse("data-changed", dataChangedRefusal(dir, meta.dataHash, input.dataHash));
  }
  const hankChanged = meta.hankHash !== undefined && meta.hankHash !== input.hankHash;
  const plan: ExecutionPlan = { kind: "resume", dir, meta, hankChanged, dataChanged };
  if (!hankChanged || intent.yes) return plan;
  const change = input.codonIds === undefined ? "" : codonChange(meta.codonIds, input.codonIds);
  if (intent.interactive) {
    const onNo = refuse("hank-changed", hankChangedRefusal(dir, input.hankPath, true, change));
    return confirm(hankChangedQuestion(dir, input.hankPath, change), plan, onNo);
  }
  return refuse("hank-changed", hankChangedRefusal(dir, input.hankPath, false, change));
}

/**
 * The execution of this hank file on this data that ran last (ties: the later directory name). An
 * execution is identified by both: another hank file on the same data (a variant beside it, another
 * project) gets its own execution, while an edited hank at the same path is still this one.
 */
export function mostRecentMatch(
  existing: readonly ExistingExecution[],
  dataHash: string,
  hankPath: string,
): ExistingExecution | undefined {
  let best: ExistingExecution | undefined;
  for (const candidate of existing) {
    if (candidate.meta.dataHash !== dataHash || candidate.meta.hankPath !== hankPath) continue;
    if (best === undefined || isMoreRecent(candidate, best)) best = candidate;
  }
  return best;
}

function isMoreRecent(a: ExistingExecution, b: ExistingExecution): boolean {
  const at = timeOf(a.meta.lastUsed);
  const bt = timeOf(b.meta.lastUsed);
  if (at !== bt) return at > bt;
  return basename(a.dir) > basename(b.dir);
}

/** Unparseable times sort first, so a meta with a broken `lastUsed` never wins over a sound one. */
function timeOf(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

function guardNesting(choice: ExecutionChoice, dataSourcePath: string): ExecutionChoice {
  const dir = choice.kind === "refuse" ? null : choice.kind === "confirm" ? choice.onYes.dir : choice.dir;
  if (dir === null) return choice;
  const problem = nestingProblem(dir, dataSourcePath);
  return problem === null ? choice : refuse("nested", problem);
}

function refuse(code: RefusalCode, message: string): ExecutionRefusal {
  return { kind: "refuse", code, message };
}

function confirm(question: string, onYes: ExecutionPlan, onNo: ExecutionRefusal): ExecutionConfirm {
  return { kind: "confirm", question, timeoutMs: CONFIRM_TIMEOUT_MS, onYes, onNo };
}
