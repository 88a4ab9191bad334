import { createHash } from "node:crypto";
import { CheckpointError } from "../checkpoint-error.ts";
import { type CheckpointRecord, isValidRunId } from "../checkpointer.ts";

/** One recorded file: its bytes and executable bit (as git keeps modes 100644/100755), or a link. */
export type StoredEntry =
  | { readonly kind: "file"; readonly bytes: Buffer; readonly executable: boolean }
  | { readonly kind: "symlink"; readonly target: string };

/** A checkpoint's files by work-tree path. Never mutated once sealed in a commit. */
export type StoredTree = ReadonlyMap<string, StoredEntry>;

export interface StoredCommit {
  readonly sha: string;
  /** Absent only for the initial commit. */
  readonly parent?: string;
  readonly tree: StoredTree;
  /** Absent only for the initial commit, which is not a checkpoint. */
  readonly record?: CheckpointRecord;
  /** The full commit message, formatted as the git store writes it. */
  readonly message: string;
}

/**
 * What a git store keeps on disk, kept in this process instead: the commits, one line per run, the
 * line HEAD points at and the index (the tracked set). Several checkpointers over one store behave like
 * processes reopening one git store; nothing survives the process. Treat it as opaque: only the memory
 * checkpointer reads and writes its fields.
 */
export interface MemoryCheckpointStore {
  /** By full id, in creation order, so iteration puts parents before children. */
  readonly commits: Map<string, StoredCommit>;
  /** Run id → the latest checkpoint of `run/<runId>`. */
  readonly lines: Map<string, string>;
  /** The initial commit (git's `main`), once `init` has made it. */
  initial: string | undefined;
  /** The run whose line was started last (git's HEAD); undefined before the first run. */
  head: string | undefined;
  /** The tracked set that the next commit updates (git's index). */
  index: Map<string, StoredEntry>;
  /** Counts the commits ever made, so two commits never hash alike. */
  sequence: number;
}

export function createMemoryCheckpointStore(): MemoryCheckpointStore {
  return {
    commits: new Map(),
    lines: new Map(),
    initial: undefined,
    head: undefined,
    index: new Map(),
    sequence: 0,
  };
}

/**
 * A new 40-hex id, taking the next number of the store's commit counter: sha1 over that number, the parent, the message and what this commit
 * changed (paths with their new content, or their removal). Deterministic for a given history, and
 * hashing only the changes keeps the cost proportional to them.
 */
export function commitId(
  store: MemoryCheckpointStore,
  parent: string | undefined,
  message: string,
  changes: ReadonlyMap<string, StoredEntry | undefined>,
): string {
  store.sequence += 1;
  const hash = createHash("sha1");
  hash.update(`${store.sequence}\0${parent ?? ""}\0${message}\0`);
  for (const path of [...changes.keys()].sort()) {
    const entry = changes.get(path);
    hash.update(`${path}\0`);
    if (entry === undefined) hash.update("-\0");
    else if (entry.kind === "symlink") hash.update(`l\0${entry.target}\0`);
    else hash.update(entry.executable ? "x\0" : "f\0").update(entry.bytes);
  }
  return hash.digest("hex");
}

/** The full id that `target` (a full id or a unique prefix of at least 4 hex digits) names. */
export function resolveId(store: MemoryCheckpointStore, target: string): string | undefined {
  if (!/^[0-9a-fA-F]{4,64}$/.test(target)) return undefined;
  const wanted = target.toLowerCase();
  if (store.commits.has(wanted)) return wanted;
  let found: string | undefined;
  for (const sha of store.commits.keys()) {
    if (!sha.startsWith(wanted)) continue;
    if (found !== undefined) return undefined;
    found = sha;
  }
  return found;
}

/** The commit a full id or unique prefix names; rejects with `unknown-checkpoint` otherwise. */
export function requireCommit(store: MemoryCheckpointStore, target: string): StoredCommit {
  const sha = resolveId(store, target);
  const commit = sha === undefined ? undefined : store.commits.get(sha);
  if (commit === undefined)
    throw new CheckpointError("unknown-checkpoint", `No checkpoint "${target}" in this store.`);
  return commit;
}

/** True when `ancestor` is `tip` or one of its parents, grandparents, and so on. */
export function isAncestor(store: MemoryCheckpointStore, ancestor: string, tip: string): boolean {
  for (let sha: string | undefined = tip; sha !== undefined; sha = store.commits.get(sha)?.parent) {
    if (sha === ancestor) return true;
  }
  return false;
}

/**
 * Without `runId`, every checkpoint of every run, parents before children (creation order); with it,
 * the checkpoints made on that run's line (not those it inherited), oldest first.
 */
export function listRecords(store: MemoryCheckpointStore, runId?: string): CheckpointRecord[] {
  if (runId === undefined) {
    return [...store.commits.values()].flatMap((commit) =>
      commit.record === undefined ? [] : [commit.record],
    );
  }
  return isValidRunId(runId) ? lineRecords(store, runId) : [];
}

/** The checkpoints made on `runId`'s line, oldest first. */
function lineRecords(store: MemoryCheckpointStore, runId: string): CheckpointRecord[] {
  const records: CheckpointRecord[] = [];
  for (let sha = store.lines.get(runId); sha !== undefined; ) {
    const commit = store.commits.get(sha);
    if (commit?.record?.runId === runId) records.push(commit.record);
    sha = commit?.parent;
  }
  return records.reverse();
}
