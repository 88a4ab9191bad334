import { stat } from "node:fs/promises";
import type { Clock } from "../../util/clock.ts";
import { CheckpointError } from "../checkpoint-error.ts";
import { type Checkpointer, runBranch } from "../checkpointer.ts";
import { type ActiveRun, commitOnLine, ensureInitialCommit, startLine } from "./memory-lines.ts";
import {
  createMemoryCheckpointStore,
  listRecords,
  type MemoryCheckpointStore,
  requireCommit,
  resolveId,
} from "./memory-store.ts";
import { restoreCheckpoint } from "./restore-files.ts";

export interface MemoryCheckpointerOptions {
  /** The agent workspace (agentRoot); it must exist before `init`. */
  readonly workTree: string;
  /** Record timestamps come from here. Default: the wall clock. */
  readonly clock?: Pick<Clock, "now">;
  /**
   * Where the checkpoints live. Checkpointers given the same store see one history, as processes
   * reopening one git store do. Default: a new store of this checkpointer's own.
   */
  readonly store?: MemoryCheckpointStore;
}

/**
 * A Checkpointer that keeps the checkpoints (file bytes, executable bits, link targets) in this
 * process's memory instead of git, for tests, dry runs and library users without git. Everything is
 * lost when the process ends: a later process cannot resume a run or roll back to a checkpoint made
 * here. Otherwise it behaves as the git store does: one line per run (`run/<runId>`), the tracked set,
 * the same glob matching, `.gitignore` rules, mandatory excludes, `changedPaths` reading and restore,
 * and 40-hex ids that resolve by unique prefix. It holds every recorded version of every file, so it
 * suits workspaces of modest size; a commit without `changedPaths` reads every selected file.
 * Mutating calls (init, startRun, commit, restore) run one at a time, in call order.
 */
export function createMemoryCheckpointer(options: MemoryCheckpointerOptions): Checkpointer {
  const clock = options.clock ?? { now: () => Date.now() };
  const store = options.store ?? createMemoryCheckpointStore();
  const workTree = options.workTree;
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
        await requireWorkTree(workTree);
        ensureInitialCommit(store);
        initialized = true;
      }),
    startRun: (runId, fromSha) =>
      serial(async () => {
        ready();
        active = startLine(store, runId, fromSha);
        return { runId, branch: runBranch(runId), baseSha: active.tip };
      }),
    commit: (input) =>
      serial(async () => {
        ready();
        const run = active;
        if (run === undefined) throw new CheckpointError("no-active-run", "Call startRun() before commit().");
        await requireWorkTree(workTree);
        return commitOnLine(store, run, input, { workTree, now: clock.now() });
      }),
    list: async (runId) => {
      ready();
      return listRecords(store, runId);
    },
    resolve: async (target) => {
      ready();
      return resolveId(store, target);
    },
    restore: (sha, restoreOptions) =>
      serial(async () => {
        ready();
        await requireWorkTree(workTree);
        return restoreCheckpoint(store, workTree, sha, restoreOptions?.globs ?? []);
      }),
    filesAt: async (sha) => {
      ready();
      return [...requireCommit(store, sha).tree.keys()].sort();
    },
  };
}

/** A missing work tree is what makes the git store unavailable too; it gets the same code. */
async function requireWorkTree(workTree: string): Promise<void> {
  const stats = await stat(workTree).catch(() => undefined);
  if (stats?.isDirectory() !== true) {
    throw new CheckpointError("git-unavailable", `The checkpoint work tree ${workTree} is not a directory.`);
  }
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
