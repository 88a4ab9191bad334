import { join } from "node:path";
import type { Clock } from "../../util/clock.ts";
import { CheckpointError } from "../checkpoint-error.ts";
import { type Checkpointer, isValidRunId, runBranch } from "../checkpointer.ts";
import { baseTreeOf, type CommitContext, commitCheckpoint } from "./commit-checkpoint.ts";
import { StoreConsolidation } from "./consolidate-store.ts";
import { DEFAULT_IDENTITY, type GitIdentity, gitEnvironment } from "./git-environment.ts";
import { isHexId, requireCommit, resolveCommit, treeFiles } from "./git-queries.ts";
import { initRepository } from "./init-repository.ts";
import { hasRunLines, readRef } from "./move-ref.ts";
import { readCheckpoints } from "./read-checkpoints.ts";
import { recoverRunPacks } from "./recover-run-packs.ts";
import { restoreWorkTree } from "./restore-work-tree.ts";
import { createGitRunner } from "./run-git.ts";
import { RunPack } from "./run-pack.ts";
import { SpareFiles } from "./spare-files.ts";
import { type ActiveRun, dropRun, endRun, runStartOf, startRun } from "./start-run.ts";
import { StoreFilesGuard } from "./store-files-guard.ts";

/** Time as a dependency: commit dates and record timestamps come from here; checkpoints only read it. */
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
  /** Loose objects written between two background consolidations. Default 256. */
  readonly consolidateEvery?: number;
  /** Added to every git process's environment (a run's writer adds its execution's mark). */
  readonly extraEnv?: Readonly<Record<string, string>>;
  /**
   * Append each run's checkpoints to one pack sealed at boundaries (`RunPack`) instead of writing loose
   * objects and moving the branch at every commit: only for the holder of the execution's lock, since
   * `init` then seals what a killed writer left (`recoverRunPacks`). This checkpointer sees every
   * checkpoint it made (it seals before it reads); readers in other processes see the run's line up
   * to the last seal, at most `sealLagMs` behind. Default false.
   */
  readonly runPack?: boolean;
  /** With `runPack`: how long a checkpoint may wait for its seal. Default `SEAL_LAG_MS` (1 s). */
  readonly sealLagMs?: number;
}

/** The git checkpointer: the contract, with `flush`, `close` and `release` always present. */
export type GitCheckpointer = Checkpointer & {
  flush(): Promise<void>;
  close(): Promise<void>;
  release(): void;
};

/** A file name in the git dir that is never created: git reads a missing index file as an empty index. */
const EMPTY_INDEX_FILE = "hankweave-empty-index";

const DEFAULT_MAX_CHANGED_PATHS = 512;

/**
 * The Checkpointer over a private git store beside the execution's state, with the agent workspace as
 * work tree and an isolated environment, one branch per run. Commits write git's objects and move the
 * run's branch from this process (`commitCheckpoint`), so a codon boundary costs no git process unless
 * new files must be checked against `.gitignore` or the globs scanned; reads, restores and scans use
 * the git CLI. Loose objects are packed in the background (`StoreConsolidation`) and once more by
 * `close`. Mutating calls (init, startRun, commit, restore, flush, close) run one at a time, in call
 * order. With `runPack`, commits append to the run's pack instead (`RunPack`): this checkpointer seals
 * it before each of its own reads, so it always sees its checkpoints; other readers see them once
 * sealed (`flush`, the timer, `close`).
 */
export function createGitCheckpointer(options: GitCheckpointerOptions): GitCheckpointer {
  const identity = options.identity ?? DEFAULT_IDENTITY;
  const indexFile = options.indexFile ?? join(options.gitDir, "index");
  const env = {
    ...gitEnvironment({
      gitDir: options.gitDir,
      workTree: options.workTree,
      indexFile,
      identity,
      pathEnv: options.pathEnv ?? process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    }),
    ...options.extraEnv,
  };
  const guard = new StoreFilesGuard(options.gitDir, identity);
  const git = createGitRunner({
    cwd: options.workTree,
    env,
    // Git reads the store: the run's pack is sealed first, so it sees every checkpoint.
    beforeSpawn: () => {
      guard.check();
      active?.runPack?.seal();
    },
    ...(options.trace ? { trace: options.trace } : {}),
  });
  const serial = serialQueue();
  const spares = new SpareFiles(options.gitDir);
  const consolidation = new StoreConsolidation(git, options.gitDir, options.consolidateEvery);
  let initialized = false;
  let active: ActiveRun | undefined;
  /** The tree a restore without an active run put back: the tracked set until a run starts. */
  let restoredTree: string | undefined;

  const ready = (): void => {
    if (!initialized)
      throw new CheckpointError("not-initialized", "Call init() before using the checkpointer.");
  };
  const commitContext = (): CommitContext => ({
    git,
    gitDir: options.gitDir,
    workTree: options.workTree,
    identity,
    now: options.clock.now(),
    maxChangedPaths: options.maxChangedPaths ?? DEFAULT_MAX_CHANGED_PATHS,
    emptyIndexFile: join(options.gitDir, EMPTY_INDEX_FILE),
    spares,
    runPack: active?.runPack,
  });
  /** The files the tracked set holds now: the active run's base, else what HEAD's line last sealed. */
  const trackedFiles = async (): Promise<string[]> => {
    if (active?.model !== undefined) return active.model.filesUnder("");
    if (active !== undefined)
      return treeFiles(git, await baseTreeOf(active, { git, gitDir: options.gitDir }));
    return treeFiles(git, restoredTree ?? "HEAD");
  };

  return {
    init: () =>
      serial(async () => {
        // Once per checkpointer: a run's start asks for it more than once (the lost-journal check, then
        // the run's line), and each `git init` is a process.
        if (initialized) return;
        await initRepository(git, {
          gitDir: options.gitDir,
          workTree: options.workTree,
          identity,
          now: options.clock.now(),
          indexFile,
          pathEnv: env.PATH,
        });
        // A run pack's writer holds the lock: what a killed (or closed-over) writer left is sealed first.
        if (options.runPack === true) recoverRunPacks(options.gitDir);
        guard.arm();
        initialized = true;
      }),
    startRun: (runId, fromSha) =>
      serial(async () => {
        ready();
        endRun(active);
        // A killed writer's unsealed checkpoints go into the store before the line is read.
        recoverRunPacks(options.gitDir);
        active = await startRun(git, options.gitDir, runId, fromSha);
        if (options.runPack === true) {
          active.runPack = new RunPack({
            gitDir: options.gitDir,
            run: active,
            onSealed: () => consolidation.sealedPack(),
            ...(options.sealLagMs !== undefined && { sealLagMs: options.sealLagMs }),
          });
        }
        restoredTree = undefined;
        // Only a run's writer starts a run: spares are made from here on (see `SpareFiles`), for loose
        // objects only: a run pack writes none.
        if (active.runPack === undefined) spares.start();
        else spares.clearLeftovers();
        return runStartOf(active);
      }),
    commit: (input) =>
      serial(async () => {
        ready();
        const run = active;
        if (run === undefined) throw new CheckpointError("no-active-run", "Call startRun() before commit().");
        const { record, objectsWritten } = await commitCheckpoint(run, input, commitContext());
        if (run.runPack === undefined) consolidation.wrote(objectsWritten);
        return record;
      }),
    list: async (runId) => {
      ready();
      active?.runPack?.seal();
      if (runId === undefined) {
        // A store without run lines (a new execution's) holds no checkpoints: no git process to say so.
        return hasRunLines(options.gitDir) ? readCheckpoints(git, ["--glob=refs/heads/run/*"]) : [];
      }
      if (!isValidRunId(runId)) return [];
      const tip = readRef(options.gitDir, `refs/heads/${runBranch(runId)}`);
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
        const tracked = await trackedFiles();
        const result = await restoreWorkTree(git, { workTree: options.workTree, target, globs, tracked });
        // The tracked set is now the target's: the next commit starts from its tree.
        const tree = (await git({ args: ["rev-parse", "--verify", `${target}^{tree}`] })).stdout.trim();
        if (active !== undefined) {
          active.baseTree = tree;
          delete active.model;
        } else restoredTree = tree;
        return { sha: target, ...result };
      }),
    filesAt: async (sha) => {
      ready();
      return treeFiles(git, await requireCommit(git, sha));
    },
    flush: () =>
      serial(async () => {
        active?.runPack?.seal();
      }),
    close: () =>
      serial(async () => {
        try {
          endRun(active);
        } catch {
          // The last seal failed (a full disk): the checkpoints stay in the run's pack file, which the
          // next holder of the lock seals (`recoverRunPacks`); the store is correct meanwhile.
          dropRun(active);
        }
        await spares.stop();
        await consolidation.settle();
      }),
    release: () => {
      dropRun(active);
      void spares.stop();
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
