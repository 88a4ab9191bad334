import { CheckpointError } from "../checkpoint-error.ts";
import { formatCheckpointMessage } from "../checkpoint-message.ts";
import type { CheckpointRecord, CommitInput } from "../checkpointer.ts";
import { commitDateEnvironment } from "./git-environment.ts";
import type { RunGit } from "./run-git.ts";
import { selectCommitPaths } from "./select-paths.ts";
import type { ActiveRun } from "./start-run.ts";

export interface CommitContext {
  readonly workTree: string;
  readonly now: number;
  readonly maxChangedPaths: number;
}

/**
 * The incremental plumbing commit: `update-index --add --remove --replace` of the selected paths only
 * (skipped when there are none), `write-tree`, `commit-tree -p <tip>` with the trailers, and
 * `update-ref <branch> <new> <old>`, which fails if the line moved under us. The caller advances its tip. Nothing here lists or
 * stats the whole work tree when `changedPaths` is given; `--replace` lets a file become a directory
 * (or the reverse) between checkpoints.
 */
export async function commitCheckpoint(
  git: RunGit,
  run: Readonly<ActiveRun>,
  input: CommitInput,
  context: CommitContext,
): Promise<{ readonly record: CheckpointRecord; readonly tree: string }> {
  const paths = await selectCommitPaths(git, {
    workTree: context.workTree,
    globs: input.globs,
    ...(input.changedPaths === undefined ? {} : { changedPaths: input.changedPaths }),
    maxChangedPaths: context.maxChangedPaths,
  });
  if (paths.length > 0) {
    await git({
      args: ["update-index", "--add", "--remove", "--replace", "-z", "--stdin"],
      input: `${paths.join("\0")}\0`,
    });
  }
  const tree =
    paths.length === 0 && run.tipTree !== undefined
      ? run.tipTree
      : (await git({ args: ["write-tree"] })).stdout.trim();
  const meta = {
    codonId: input.codonId,
    codonName: input.codonName,
    checkpointType: input.type,
    runId: run.runId,
    timestamp: new Date(context.now).toISOString(),
  };
  const created = await git({
    args: ["commit-tree", tree, "-p", run.tip, "-F", "-"],
    input: formatCheckpointMessage(meta, input.message),
    env: commitDateEnvironment(context.now),
  });
  const sha = created.stdout.trim();
  await moveLine(git, run, sha);
  return { record: { sha, ...meta, branch: run.branch }, tree };
}

async function moveLine(git: RunGit, run: Readonly<ActiveRun>, sha: string): Promise<void> {
  const moved = await git({ args: ["update-ref", run.ref, sha, run.tip], okCodes: [0, 1, 128] });
  if (moved.exitCode !== 0) {
    throw new CheckpointError(
      "ref-moved",
      `Checkpoint branch ${run.branch} moved under this checkpointer: ${moved.stderr.trim()}`,
      { args: ["update-ref", run.ref, sha, run.tip], exitCode: moved.exitCode, stderr: moved.stderr },
    );
  }
}
