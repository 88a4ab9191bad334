import { CheckpointError } from "../checkpoint-error.ts";
import { formatCheckpointMessage } from "../checkpoint-message.ts";
import { type CheckpointRecord, type CommitInput, isValidRunId, runBranch } from "../checkpointer.ts";
import { parentDirectories } from "../work-tree-paths.ts";
import {
  commitId,
  isAncestor,
  type MemoryCheckpointStore,
  requireCommit,
  type StoredEntry,
} from "./memory-store.ts";
import { selectCommitPaths } from "./select-files.ts";
import { createParentCheck, readEntry, sameEntry } from "./work-tree-entries.ts";

/** The run whose line receives commits; `tip` advances with each one. */
export interface ActiveRun {
  readonly runId: string;
  tip: string;
}

/** The root of every run's line, made once per store: an empty tree, not a checkpoint. */
export function ensureInitialCommit(store: MemoryCheckpointStore): void {
  if (store.initial !== undefined) return;
  const message = "hankweave: initial checkpoint\n";
  const sha = commitId(store, undefined, message, new Map());
  store.commits.set(sha, { sha, tree: new Map(), message });
  store.initial = sha;
}

/**
 * Creates or resumes the run's line, makes it the store's current line and loads its tip as the
 * tracked set. A new line starts at `fromSha` or at the current line's tip; an existing line keeps its
 * tip, and `fromSha` must then lie on it.
 */
export function startLine(store: MemoryCheckpointStore, runId: string, fromSha?: string): ActiveRun {
  if (!isValidRunId(runId)) {
    throw new CheckpointError("invalid-run-id", `Run id "${runId}" cannot name a checkpoint line.`);
  }
  const existing = store.lines.get(runId);
  let tip: string;
  if (existing !== undefined) {
    const base = fromSha === undefined ? undefined : requireCommit(store, fromSha).sha;
    if (base !== undefined && !isAncestor(store, base, existing)) {
      throw new CheckpointError(
        "run-conflict",
        `Run "${runId}" already exists and does not descend from checkpoint ${base.slice(0, 7)}.`,
      );
    }
    tip = existing;
  } else {
    tip = fromSha === undefined ? currentTip(store) : requireCommit(store, fromSha).sha;
    store.lines.set(runId, tip);
  }
  store.head = runId;
  store.index = new Map(requireCommit(store, tip).tree);
  return { runId, tip };
}

function currentTip(store: MemoryCheckpointStore): string {
  const tip = store.head === undefined ? store.initial : store.lines.get(store.head);
  if (tip === undefined)
    throw new CheckpointError("not-initialized", "The checkpoint store has no initial commit.");
  return tip;
}

/**
 * Refreshes the selected paths in the tracked set, seals it as a child of the run's tip and moves the
 * line. Everything that reads the work tree happens first; the store then changes in one synchronous
 * step, after checking that no other checkpointer on the store moved the line meanwhile (`ref-moved`).
 */
export async function commitOnLine(
  store: MemoryCheckpointStore,
  run: ActiveRun,
  input: CommitInput,
  context: { readonly workTree: string; readonly now: number },
): Promise<CheckpointRecord> {
  const paths = await selectCommitPaths({
    workTree: context.workTree,
    globs: input.globs,
    tracked: [...store.index.keys()],
    ...(input.changedPaths === undefined ? {} : { changedPaths: input.changedPaths }),
  });
  const changes = await readChanges(context.workTree, paths, store.index);
  const branch = runBranch(run.runId);
  if (store.lines.get(run.runId) !== run.tip) {
    throw new CheckpointError("ref-moved", `Checkpoint line ${branch} moved under this checkpointer.`);
  }
  applyChanges(store.index, changes);
  const meta = {
    codonId: input.codonId,
    codonName: input.codonName,
    checkpointType: input.type,
    runId: run.runId,
    timestamp: new Date(context.now).toISOString(),
  };
  const message = formatCheckpointMessage(meta, input.message);
  const sha = commitId(store, run.tip, message, changes);
  const record: CheckpointRecord = { sha, ...meta, branch };
  store.commits.set(sha, { sha, parent: run.tip, tree: new Map(store.index), record, message });
  store.lines.set(run.runId, sha);
  run.tip = sha;
  return record;
}

/** The selected paths whose work-tree state differs from the tracked set: new content, or undefined when gone. */
async function readChanges(
  workTree: string,
  paths: readonly string[],
  index: ReadonlyMap<string, StoredEntry>,
): Promise<Map<string, StoredEntry | undefined>> {
  const parentsOk = createParentCheck(workTree);
  const changes = new Map<string, StoredEntry | undefined>();
  for (const path of paths) {
    const entry = await readEntry(workTree, path, parentsOk);
    if (!sameEntry(entry, index.get(path))) changes.set(path, entry);
  }
  return changes;
}

/**
 * Applies the changes in path order. An added path replaces a tracked file standing where one of its
 * parent directories belongs, as git's `update-index --replace` does; tracked files below an added
 * file were selected too (a glob matching a path matches what lies under it) and are removed as gone.
 */
function applyChanges(
  index: Map<string, StoredEntry>,
  changes: ReadonlyMap<string, StoredEntry | undefined>,
): void {
  for (const path of [...changes.keys()].sort()) {
    const entry = changes.get(path);
    if (entry === undefined) {
      index.delete(path);
      continue;
    }
    for (const dir of parentDirectories(path)) index.delete(dir);
    index.set(path, entry);
  }
}
