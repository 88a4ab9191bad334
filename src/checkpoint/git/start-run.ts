import { CheckpointError } from "../checkpoint-error.ts";
import { isValidRunId, type RunStart, runBranch } from "../checkpointer.ts";
import { requireCommit } from "./git-queries.ts";
import { MAIN_REF } from "./init-repository.ts";
import { moveRef, pointHead, readHead, readRef } from "./move-ref.ts";
import { OpenRef } from "./open-ref.ts";
import type { RunGit } from "./run-git.ts";
import type { RunPack } from "./run-pack.ts";
import type { TreeModel } from "./tree-model.ts";

/** The run whose line receives commits; `tip` advances with each one. */
export interface ActiveRun {
  readonly runId: string;
  readonly ref: string;
  readonly branch: string;
  tip: string;
  /**
   * The tracked set the next commit starts from: the tip's tree, or the checkpoint's that `restore`
   * put back. Undefined until first needed (one `rev-parse`).
   */
  baseTree?: string;
  /** `baseTree` held in memory, loaded when a commit first needs it and kept current by commits. */
  model?: TreeModel;
  /** The line's ref file, kept open between commits; closed by `endRun`. */
  readonly openRef: OpenRef;
  /** Where the writer appends the run's checkpoints (see `RunPack`); sealed by `endRun`. */
  runPack?: RunPack;
}

/**
 * Creates or resumes the run's line (`refs/heads/run/<runId>`) and points HEAD at it (so the store's
 * `git log` shows the current run); the next commit starts from the line's tip. The index is not
 * touched: only a commit that scans the globs uses it, and it loads the base tree into it first.
 * Refs and HEAD are read and written from this process (git's lock protocol, see `moveRef`); git runs
 * only to check a checkpoint named by the caller.
 */
export async function startRun(
  git: RunGit,
  gitDir: string,
  runId: string,
  fromSha: string | undefined,
): Promise<ActiveRun> {
  if (!isValidRunId(runId)) {
    throw new CheckpointError("invalid-run-id", `Run id "${runId}" cannot name a checkpoint branch.`);
  }
  const branch = runBranch(runId);
  const ref = `refs/heads/${branch}`;
  const existing = readRef(gitDir, ref);
  let tip: string;
  if (existing !== undefined) {
    if (fromSha !== undefined) await requireOnLine(git, runId, fromSha, existing);
    tip = existing;
  } else {
    tip = fromSha !== undefined ? await requireCommit(git, fromSha) : currentTip(gitDir);
    moveRef(gitDir, ref, tip, undefined);
  }
  pointHead(gitDir, ref);
  return { runId, ref, branch, tip, openRef: new OpenRef(gitDir, ref) };
}

/** Seals the run's pack (its branch moved onto the newest checkpoint) and closes its ref file. */
export function endRun(run: ActiveRun | undefined): void {
  run?.runPack?.seal();
  run?.openRef.close();
}

/** Lets go of what the run holds open without writing to the store (the lock is lost): recovery seals it. */
export function dropRun(run: ActiveRun | undefined): void {
  run?.runPack?.drop();
  run?.openRef.close();
}

export function runStartOf(run: ActiveRun): RunStart {
  return { runId: run.runId, branch: run.branch, baseSha: run.tip };
}

/** The latest checkpoint of the line HEAD points at (the last active run's, or `main`). */
function currentTip(gitDir: string): string {
  const tip = readHead(gitDir) ?? readRef(gitDir, MAIN_REF);
  if (tip === undefined)
    throw new CheckpointError("not-initialized", "The checkpoint store has no initial commit.");
  return tip;
}

/** A resumed run may name its base again, but not a checkpoint off its line. */
async function requireOnLine(git: RunGit, runId: string, fromSha: string, tip: string): Promise<void> {
  const base = await requireCommit(git, fromSha);
  const check = await git({ args: ["merge-base", "--is-ancestor", base, tip], okCodes: [0, 1] });
  if (check.exitCode !== 0) {
    throw new CheckpointError(
      "run-conflict",
      `Run "${runId}" already exists and does not descend from checkpoint ${base.slice(0, 7)}.`,
    );
  }
}
