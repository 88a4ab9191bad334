import { compileGlobs, type GlobSet } from "../../util/glob-set.ts";
import { formatCheckpointMessage } from "../checkpoint-message.ts";
import type { CheckpointRecord, CommitInput } from "../checkpointer.ts";
import { isMandatoryExcluded, toWorkTreePath } from "../work-tree-paths.ts";
import { commitBody } from "./commit-object.ts";
import type { GitIdentity } from "./git-environment.ts";
import { listFiles, literalPathspecs, splitNul } from "./git-queries.ts";
import { looseSink, type ObjectType, objectId, treeOfLooseCommit, writeObject } from "./loose-objects.ts";
import { moveRef } from "./move-ref.ts";
import type { RunGit } from "./run-git.ts";
import type { RunPack } from "./run-pack.ts";
import { scanSelection } from "./select-paths.ts";
import { EMPTY_TREE, snapshotTree } from "./snapshot-tree.ts";
import type { SpareFiles } from "./spare-files.ts";
import { stageChanges } from "./stage-changes.ts";
import type { ActiveRun } from "./start-run.ts";
import { TreeModel } from "./tree-model.ts";

export interface CommitContext {
  readonly git: RunGit;
  readonly gitDir: string;
  readonly workTree: string;
  readonly identity: GitIdentity;
  readonly now: number;
  readonly maxChangedPaths: number;
  /** An index file that does not exist: git reads it as empty (see `listUnignored`). */
  readonly emptyIndexFile: string;
  /** Files made ahead of time for the objects written (see `SpareFiles`). */
  readonly spares?: SpareFiles | undefined;
  /**
   * The run's pack: when given, the staged objects and the commit are appended to it and the branch
   * is moved when the pack is sealed (see `RunPack`); else they are written loose and the branch moved
   * at once.
   */
  readonly runPack?: RunPack | undefined;
}

export interface Committed {
  readonly record: CheckpointRecord;
  /** Loose objects this commit wrote (or an estimate, for a scan), for the store's consolidation. */
  readonly objectsWritten: number;
}

/**
 * One checkpoint. The tree is built one of three ways:
 * - seal: no glob, or no reported path a glob reaches: the base tree as it stands;
 * - staged: the reported paths only, against the base tree held in memory (`stageChanges`), written
 *   from this process: no git process for tracked files, one `ls-files` when new files or directories
 *   must be checked against `.gitignore`;
 * - scan: no report, a long one, or the work tree itself reported: the globs are resolved over the
 *   whole tree; from an empty base (a run's first checkpoint) every selected file is read here and
 *   written into one pack (`snapshotTree`), else the index is loaded with the base tree (`read-tree
 *   --reset`, keeping the stat data of unchanged files) and `update-index` + `write-tree` record them.
 * Then the commit object is written and the run's branch moved onto it (`moveRef`): objects first, ref
 * last, so a kill at any instant leaves the branch on a complete checkpoint.
 */
export async function commitCheckpoint(
  run: ActiveRun,
  input: CommitInput,
  context: CommitContext,
): Promise<Committed> {
  const globs = compileGlobs(input.globs);
  const route = routeOf(input, globs, context);
  let objectsWritten = 0;
  let tree: string;
  if (route.kind === "scan") {
    const scanned = await scanTree(run, input.globs, context);
    tree = scanned.tree;
    objectsWritten += scanned.objectsWritten;
  } else if (route.kind === "staged") {
    const model = await modelOf(run, context);
    objectsWritten += await stageChanges(model, {
      workTree: context.workTree,
      sink: context.runPack ?? looseSink(context.gitDir, context.spares),
      globs,
      paths: route.paths,
      listUnignored: (paths) => listUnignored(context, paths),
      hashLarge: (paths) => hashLarge(context, paths),
    });
    tree = model.write((body) => {
      const written = putObject(context, "tree", body);
      if (written.written) objectsWritten++;
      return written.id;
    });
  } else {
    tree = await baseTreeOf(run, context);
  }
  const meta = {
    codonId: input.codonId,
    codonName: input.codonName,
    checkpointType: input.type,
    runId: run.runId,
    timestamp: new Date(context.now).toISOString(),
  };
  const message = formatCheckpointMessage(meta, input.message);
  const commit = putObject(context, "commit", commitBody(tree, run.tip, context, message));
  if (context.runPack !== undefined) context.runPack.writeCheckpoint(commit.id);
  else {
    if (commit.written) objectsWritten++;
    moveRef(context.gitDir, run.ref, commit.id, run.tip, run.openRef);
  }
  run.tip = commit.id;
  run.baseTree = tree;
  return { record: { sha: commit.id, ...meta, branch: run.branch }, objectsWritten };
}

/** An object into the run's pack when there is one, else written loose. */
function putObject(context: CommitContext, type: ObjectType, body: Buffer): { id: string; written: boolean } {
  if (context.runPack === undefined)
    return writeObject(context.gitDir, type, body, { spares: context.spares });
  const id = objectId(type, body);
  return { id, written: context.runPack.put(type, body, id) };
}

type Route =
  | { readonly kind: "seal" }
  | { readonly kind: "staged"; readonly paths: readonly string[] }
  | { readonly kind: "scan" };

function routeOf(input: CommitInput, globs: GlobSet, context: CommitContext): Route {
  if (input.globs.length === 0) return { kind: "seal" };
  const changed = input.changedPaths;
  if (changed === undefined || changed.length > context.maxChangedPaths) return { kind: "scan" };
  const paths = new Set<string>();
  for (const raw of changed) {
    const path = toWorkTreePath(context.workTree, raw);
    if (path === ".") return { kind: "scan" };
    if (path === undefined || isMandatoryExcluded(path)) continue;
    if (globs.matches(path) || globs.mayContain(path)) paths.add(path);
  }
  return paths.size === 0 ? { kind: "seal" } : { kind: "staged", paths: [...paths] };
}

/**
 * The tree the next commit starts from (see `ActiveRun.baseTree`): read from the tip's loose object
 * when it is one (no git process), else asked of git.
 */
export async function baseTreeOf(
  run: ActiveRun,
  context: Pick<CommitContext, "git" | "gitDir">,
): Promise<string> {
  if (run.baseTree !== undefined) return run.baseTree;
  const loose = treeOfLooseCommit(context.gitDir, run.tip);
  const tree =
    loose ??
    (
      await context.git({ args: ["rev-parse", "--verify", "--end-of-options", `${run.tip}^{tree}`] })
    ).stdout.trim();
  run.baseTree = tree;
  return tree;
}

async function modelOf(run: ActiveRun, context: CommitContext): Promise<TreeModel> {
  if (run.model === undefined) {
    const base = await baseTreeOf(run, context);
    const listed =
      base === EMPTY_TREE
        ? ""
        : (await context.git({ args: ["ls-tree", "-r", "-t", "-z", "--full-tree", base] })).stdout;
    run.model = TreeModel.parse(base, listed);
  }
  return run.model;
}

/**
 * The scan route. From an empty base (a run's first checkpoint) the selection is read and written
 * into a pack here (`snapshotTree`). Otherwise the index is loaded with the base tree, every selected
 * path given to `update-index` (which re-reads only files whose stat data changed) and `write-tree`
 * run; the tree in memory, if any, is dropped and the next staged commit reads the new base tree.
 */
async function scanTree(
  run: ActiveRun,
  globs: readonly string[],
  context: CommitContext,
): Promise<{ tree: string; objectsWritten: number }> {
  const { git } = context;
  const base = await baseTreeOf(run, context);
  if (base === EMPTY_TREE) {
    const snapshot = await snapshotTree({
      gitDir: context.gitDir,
      workTree: context.workTree,
      // A few objects go where the run's other objects go: its pack, else loose.
      loose: context.runPack ?? looseSink(context.gitDir, context.spares),
      listSelection: () => scanSelection(withEmptyIndex(context), globs),
      hashLarge: (paths) => hashLarge(context, paths),
    });
    run.model = snapshot.model;
    return { tree: snapshot.tree, objectsWritten: snapshot.looseWritten };
  }
  // `--reset` keeps the stat data of unchanged entries, like `-m`, and never refuses over a stale entry.
  await git({ args: ["read-tree", "--reset", base] });
  const paths = await scanSelection(git, globs);
  if (paths.length === 0) return { tree: base, objectsWritten: 0 };
  await git({
    args: ["update-index", "--add", "--remove", "--replace", "-z", "--stdin"],
    input: `${paths.join("\0")}\0`,
  });
  const tree = (await git({ args: ["write-tree"] })).stdout.trim();
  if (tree !== base) delete run.model;
  return { tree, objectsWritten: paths.length + 1 };
}

/** Git with an index file that does not exist, which it reads as an empty index. */
function withEmptyIndex(context: CommitContext): RunGit {
  return (call) => context.git({ ...call, env: { ...call.env, GIT_INDEX_FILE: context.emptyIndexFile } });
}

/**
 * The files at or under `paths` that `.gitignore` rules do not exclude, tracked or not: `ls-files
 * --others` against an empty index lists every such file (nested repositories come back as `dir/` and
 * are dropped by `listFiles`).
 */
async function listUnignored(context: CommitContext, paths: readonly string[]): Promise<string[]> {
  return listFiles(withEmptyIndex(context), ["--others", "--exclude-standard"], literalPathspecs(paths));
}

async function hashLarge(context: CommitContext, paths: readonly string[]): Promise<string[]> {
  const out = await context.git({
    args: ["hash-object", "-w", "--no-filters", "--stdin-paths"],
    input: `${paths.join("\n")}\n`,
  });
  return splitNul(out.stdout.replace(/\n/g, "\0"));
}
