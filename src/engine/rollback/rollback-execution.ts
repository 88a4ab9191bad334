import type { CheckpointRecord, RestoreReport } from "../../checkpoint/index.ts";
import { compileGlobs, runBranch } from "../../checkpoint/index.ts";
import { codonIndex, finishedCodonIds } from "../../journal/index.ts";
import type { ExecutionPlan } from "../../plan/index.ts";
import { archivesToRestore } from "./archive-selection.ts";
import { checkpointThread, currentRunOf } from "./checkpoint-thread.ts";
import { checkpointGlobsOf, codonsUndone, planAfterRollback } from "./plan-after-rollback.ts";
import { type ResolvedTarget, resolveRollbackTarget } from "./resolve-target.ts";
import type {
  ArchiveRestoreData,
  RollbackDeps,
  RollbackFailure,
  RollbackInput,
  RollbackResult,
} from "./rollback-types.ts";

/** Where the rollback goes, decided before anything is touched. */
interface Located {
  readonly ok: true;
  readonly fromRun: string;
  readonly fromCodon: string;
  readonly target: ResolvedTarget;
  /** The checkpoint after the target on the target's own run (archive rule 3). */
  readonly nextOnRun: CheckpointRecord | undefined;
  readonly undone: readonly string[];
  readonly globs: readonly string[];
}

const TOTAL_STEPS = 4;

/**
 * Rolls an execution back to a checkpoint (reference 1.14), as named steps:
 * 1. locate: read the checkpoints, compute the current line, resolve the target on it (refusals end
 *    here, with nothing written);
 * 2. announce: `rollback.started {fromRun, fromCodon, toCodon, toCheckpoint, checkpointType,
 *    codonsToProcess}`;
 * 3. restore the work tree: the checkpoint selection (union of the hank's `checkpointedFiles`) becomes
 *    the target's, files created since are removed (`rollback.codonCheckpoint`);
 * 4. restore archived files archived after the target (`rollback.archiveRestore`, see
 *    `archivesToRestore`);
 * 5. start the continuation run's line at the target (`Checkpointer.startRun(toRun, sha)`);
 * 6. record `rollback.completed {fromRun, toRun, checkpoint, codonId, codonName, checkpointType,
 *    autoRestart}` (the reducer drops the undone codons) and save the rewritten plan with the state.
 * Steps 3 to 5 each announce themselves with `rollback.progress`. The caller holds the execution lock.
 * A failure in steps 3 to 5 is journaled as an `error` and leaves the rollback interrupted (no
 * `rollback.completed`): the next start refuses to run until the rollback is repeated.
 */
export async function rollbackExecution(input: RollbackInput, deps: RollbackDeps): Promise<RollbackResult> {
  const located = await locate(input, deps);
  if (!located.ok) return located;
  announce(deps, located);
  const toRun = deps.newRunId();
  const { record } = located.target;
  let report: RestoreReport;
  let archive: ArchiveRestoreData | undefined;
  try {
    report = await restoreWorkTree(deps, located);
    archive = await restoreArchives(deps, located);
    progress(deps, 3, `Starting run ${toRun} on branch ${runBranch(toRun)} from ${short(record.sha)}`);
    await deps.checkpointer.startRun(toRun, record.sha);
  } catch (caught) {
    return interrupted(deps, located, caught);
  }
  const plan = rewrittenPlan(input, deps, located);
  progress(deps, 4, `Saving the plan: ${located.undone.length} codon(s) to run again`);
  deps.sink.emit("rollback.completed", {
    fromRun: located.fromRun,
    toRun,
    checkpoint: record.sha,
    codonId: located.target.codonId,
    codonName: located.target.codonName,
    checkpointType: located.target.checkpointType,
    autoRestart: input.autoRestart,
  });
  save(deps, plan);
  return {
    ok: true,
    fromRun: located.fromRun,
    toRun,
    checkpoint: record,
    codonId: located.target.codonId,
    checkpointType: located.target.checkpointType,
    codonsToProcess: located.undone,
    restored: report.restored,
    removed: report.removed,
    ...(archive !== undefined && { archive }),
    plan,
  };
}

async function locate(input: RollbackInput, deps: RollbackDeps): Promise<Located | RollbackFailure> {
  const fromRun = currentRunOf(input.line.steps);
  if (fromRun === undefined) return failure("no-runs", "This execution has no run to roll back.");
  let records: CheckpointRecord[];
  try {
    await deps.checkpointer.init();
    records = await deps.checkpointer.list();
  } catch (caught) {
    return failure("checkpoints-unavailable", `The checkpoints could not be read: ${messageOf(caught)}`);
  }
  const thread = checkpointThread(input.line.steps, records);
  const target = resolveRollbackTarget(input.target, { thread, all: records });
  if (!target.ok) return target;
  const state = deps.sink.state();
  if (codonIndex(state, target.codonId) === -1) {
    return failure(
      "off-line",
      `The journal has no record of codon ${target.codonId}: checkpoint ${short(target.record.sha)} does not belong to this execution's current line.`,
    );
  }
  const ownRun = records.filter((r) => r.runId === target.record.runId);
  return {
    ok: true,
    fromRun,
    fromCodon: state.codons.at(-1)?.id ?? "",
    target,
    nextOnRun: ownRun[ownRun.findIndex((r) => r.sha === target.record.sha) + 1],
    undone: codonsUndone(state, target.codonId, target.checkpointType),
    globs: checkpointGlobsOf(input.hank),
  };
}

function announce(deps: RollbackDeps, located: Located): void {
  deps.sink.emit("rollback.started", {
    fromRun: located.fromRun,
    fromCodon: located.fromCodon,
    toCodon: located.target.codonId,
    toCheckpoint: located.target.record.sha,
    checkpointType: located.target.checkpointType,
    codonsToProcess: [...located.undone],
  });
}

async function restoreWorkTree(deps: RollbackDeps, located: Located): Promise<RestoreReport> {
  const { record, codonId, codonName, checkpointType } = located.target;
  progress(
    deps,
    1,
    `Restoring the work tree to checkpoint ${short(record.sha)} (${record.codonId} ${record.checkpointType})`,
  );
  const report = await deps.checkpointer.restore(record.sha, { globs: located.globs });
  deps.sink.emit("rollback.codonCheckpoint", {
    codonId,
    codonName,
    checkpoint: record.sha,
    checkpointType,
    message: `Work tree at ${record.codonId} ${record.checkpointType} (${short(record.sha)}): ${report.restored.length} file(s) restored, ${report.removed.length} removed`,
  });
  return report;
}

async function restoreArchives(
  deps: RollbackDeps,
  located: Located,
): Promise<ArchiveRestoreData | undefined> {
  progress(deps, 2, "Restoring archived files");
  const { archives } = deps;
  if (archives === undefined) return undefined;
  const codonId = located.target.codonId;
  const open = await archives.openEntries();
  if (!open.ok) {
    const data: ArchiveRestoreData = {
      codonId,
      restoredPaths: [],
      failedPaths: [{ path: "archive-manifest.json", error: open.error }],
      status: "failed",
    };
    deps.sink.emit("rollback.archiveRestore", data);
    return data;
  }
  const selected = archivesToRestore({
    entries: open.entries,
    target: located.target.record,
    nextOnRun: located.nextOnRun,
    selection: compileGlobs(located.globs),
  });
  if (selected.length === 0) return undefined;
  const data = await archives.restore(
    codonId,
    selected.map((entry) => entry.id),
  );
  deps.sink.emit("rollback.archiveRestore", data);
  return data;
}

/** The plan after the rollback: the codons it undoes are no longer finished. */
function rewrittenPlan(input: RollbackInput, deps: RollbackDeps, located: Located): ExecutionPlan {
  const undone = new Set(located.undone);
  const finished = new Set([...finishedCodonIds(deps.sink.state())].filter((id) => !undone.has(id)));
  return planAfterRollback(input.hank, input.line.reports, located.undone, finished);
}

/** The snapshot is a cache: when it cannot be written, the next start rebuilds the plan from the journal. */
function save(deps: RollbackDeps, plan: ExecutionPlan): void {
  try {
    deps.persist(plan);
  } catch (caught) {
    deps.sink.emit("error", {
      message: `The state snapshot could not be written after the rollback (the next start rebuilds it from the journal): ${messageOf(caught)}`,
      fatal: false,
      severity: "warning",
    });
  }
}

function interrupted(deps: RollbackDeps, located: Located, caught: unknown): RollbackFailure {
  const message = `Rollback to ${located.target.codonId} (${short(located.target.record.sha)}) failed: ${messageOf(caught)}. The work tree may be partly restored; run the rollback again.`;
  deps.sink.emit("error", { message, fatal: false, severity: "operation", code: "rollback-failed" });
  return failure("failed", message);
}

function progress(deps: RollbackDeps, currentStep: number, message: string): void {
  deps.sink.emit("rollback.progress", { currentStep, totalSteps: TOTAL_STEPS, message });
}

function short(sha: string): string {
  return sha.slice(0, 7);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function failure(code: RollbackFailure["code"], message: string): RollbackFailure {
  return { ok: false, code, message };
}
