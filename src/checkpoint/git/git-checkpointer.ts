import { join } from "node:path";
import type { Clock } from "../../util/clock.ts";
import { CheckpointError } from "../checkpoint-error.ts";
import { type Checkpointer, isValidRunId, runBranch } from "../checkpointer.ts";
import { commitCheckpoint } from "./commit-checkpoint.ts";
import { DEFAULT_IDENTITY, type GitIdentity, gitEnvironment } from "./git-environment.ts";
import { isHexId, requireCommit, resolveCommit, treeFiles } from "./git-queries.ts";
import { initRepository } from "./init-repository.ts";
import { readCheckpoints } from "./read-checkpoints.ts";
import { restoreWorkTree } from "./restore-work-tree.ts";
import { createGitRunner } from "./run-git.ts";
import { type ActiveRun, runStartOf, startRun } from "./start-run.ts";

/** Time as a dependency: commit dates and record timestamps come from here. */
/** Checkpoints only read the time. */
export type CheckpointClock = Pick<Clock, "now">;

export interface GitCheckpointerOptions {
  /** The private git dir: `<exec>/.hankweave/checkpoints/.hankweavecheckpoints`. */
  readonly gitDir: string;
  /** The agent workspace (agentRoot); it must exist before `init`. */
  readonly workTree: string;
  readonly clock: CheckpointClock;
  /** The private index file. Default: `index` inside `gitDir`. */
  readonly indexFile?: string;
  readonly identity?: GitIdentity;
  /** PATH used to find git. Default: this process's PATH. */
  readonly pathEnv?: string;
  /** Above this many changed paths a commit scans the globs instead. Default 512. */
  readonly maxChangedPaths?: number;
  /** Sees the arguments of every git process (benchmarks count spawns with it). */
  readonly trace?: (args: readonly string[]) => void;
}

const DEFAULT_MAX_CHANGED_PATHS = 512;

/**
 * The Checkpointer over the git CLI: a private git dir and index beside the execution's state, the
 * agent workspace as work tree, an isolated environment, one branch per run, and incremental plumbing
 * commits. Mutating calls (init, startRun, commit, restore) run one at a time, in call order.
 */
export function createGitCheckpointer(options: GitCheckpointerOptions): Checkpointer {
  const identity = options.identity ?? DEFAULT_IDENTITY;
  const env = gitEnvironment({
    gitDir: options.gitDir,
    workTree: options.workTree,
    indexFile: options.indexFile ?? join(options.gitDir, "index"),
    identity,
    pathEnv: options.pathEnv ?? process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
  });
  const git = createGitRunner({
    cwd: options.workTree,
    env,
    ...(options.trace ? { trace: options.trace } : {}),
  });
  const serial = serialQueue();
  let initialized = false;
  let active: ActiveRun | undefined;

  const ready = (): void => {
    if (!initialized)
      throw new CheckpointError("not-initialized", "Call init() before using the checkpointer.");
  };

  return {
    init: () =>
      serial(async () => {
        await initRepository(git, { gitDir: options.gitDir, identity, now: options.clock.now() });
        initialized = true;
      }),
    startRun: (runId, fromSha) =>
      serial(async () => {
        ready();
        active = await startRun(git, runId, fromSha);
        return runStartOf(active);
      }),
    commit: (input) =>
      serial(async () => {
        ready();
        const run = active;
        if (run === undefined) throw new CheckpointError("no-active-run", "Call startRun() before commit().");
        const context = {
          workTree: options.workTree,
          now: options.clock.now(),
          maxChangedPaths: options.maxChangedPaths ?? DEFAULT_MAX_CHANGED_PATHS,
        };
        const { record, tree } = await commitCheckpoint(git, run, input, context);
        run.tip = record.sha;
        run.tipTree = tree;
        return record;
      }),
    list: async (runId) => {
      ready();
      if (runId === undefined) return readCheckpoints(git, ["--glob=refs/heads/run/*"]);
      if (!isValidRunId(runId)) return [];
      const tip = await resolveCommit(git, `refs/heads/${runBranch(runId)}`);
      return tip === undefined ? [] : readCheckpoints(git, [tip], runId);
    },
    resolve: async (target) => {
      ready();
      return isHexId(target) ? resolveCommit(git, target) : undefined;
    },
    restore: (sha, restoreOptions) =>
      serial(async () => {
        ready();
        const target = await requireCommit(git, sha);
        const globs = restoreOptions?.globs ?? [];
        const result = await restoreWorkTree(git, { workTree: options.workTree, target, globs });
        // The index now holds the restored tree, not the tip's: the next commit must write its tree.
        if (active !== undefined) delete active.tipTree;
        return { sha: target, ...result };
      }),
    filesAt: async (sha) => {
      ready();
      return treeFiles(git, await requireCommit(git, sha));
    },
  };
}

/** Runs tasks one after another in call order; a failed task does not block the next. */
function serialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}
