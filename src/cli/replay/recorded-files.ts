import { execFileSync } from "node:child_process";
import { parseCheckpointMessage } from "../../checkpoint/checkpoint-message.ts";
import { runBranch } from "../../events/checkpoints.ts";
import type { RecordedFileChange } from "../../harness/replay/index.ts";

/** A checkpoint of the recorded run and what it changed against the checkpoint before it. */
export interface RecordedCheckpoint {
  readonly codonId: string;
  readonly checkpointType: string;
  readonly sha: string;
  readonly tree: string;
  readonly files: readonly RecordedFileChange[];
}

/**
 * Reads a recorded run's checkpoints from the recording's private git dir, oldest first, each with the
 * files it changed (diff against its first parent) and their bytes. Read-only: plumbing commands only,
 * and one `cat-file --batch` for every blob.
 */
export function readRecordedCheckpoints(gitDir: string, runId: string): RecordedCheckpoint[] {
  const git = (args: readonly string[], input?: string): Buffer =>
    execFileSync("git", [`--git-dir=${gitDir}`, ...args], {
      maxBuffer: 1024 * 1024 * 1024,
      ...(input !== undefined && { input }),
    });
  const log = git(["log", "--format=%x1e%H %T%x1f%B", "--reverse", "--first-parent", runBranch(runId), "--"]);
  const commits: { sha: string; tree: string; codonId: string; checkpointType: string }[] = [];
  for (const chunk of log.toString("utf8").split("\x1e")) {
    const split = chunk.indexOf("\x1f");
    if (split < 0) continue;
    const meta = parseCheckpointMessage(chunk.slice(split + 1));
    const [sha = "", tree = ""] = chunk.slice(0, split).trim().split(" ");
    if (meta === undefined || meta.runId !== runId) continue;
    commits.push({ sha, tree, codonId: meta.codonId, checkpointType: meta.checkpointType });
  }
  const diffs = diffAgainstParents(
    git,
    commits.map((commit) => commit.sha),
  );
  const changes = commits.map((commit) => diffs.get(commit.sha) ?? []);
  const blobs = readBlobs(
    git,
    changes.flat().flatMap((change) => (change.blob === undefined ? [] : [change.blob])),
  );
  return commits.map((commit, index) => ({
    ...commit,
    files: (changes[index] ?? []).map((change) => toFileChange(change, blobs)),
  }));
}

interface TreeChange {
  readonly path: string;
  readonly blob?: string;
  readonly executable: boolean;
}

/**
 * Each commit's changes against its first parent, from one `git diff-tree --stdin`: its output is the
 * commit id, then that commit's raw entries (each starts with `:`), for every commit in turn.
 */
function diffAgainstParents(
  git: (args: readonly string[], input?: string) => Buffer,
  shas: readonly string[],
): Map<string, TreeChange[]> {
  const diffs = new Map<string, TreeChange[]>();
  if (shas.length === 0) return diffs;
  const raw = git(["diff-tree", "--stdin", "-r", "--no-renames", "-z"], `${shas.join("\n")}\n`);
  const parts = raw.toString("utf8").split("\0");
  let current: TreeChange[] = [];
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] ?? "";
    if (!part.startsWith(":")) {
      if (part.trim() === "") continue;
      current = [];
      diffs.set(part.trim(), current);
      continue;
    }
    const [, newMode = "", , newSha = "", status = ""] = part.slice(1).split(" ");
    const path = parts[index + 1] ?? "";
    index += 1;
    if (status.startsWith("D")) current.push({ path, executable: false });
    else if (newMode.startsWith("100"))
      current.push({ path, blob: newSha, executable: newMode === "100755" });
  }
  return diffs;
}

/** Every blob's bytes, by id, from one `git cat-file --batch`. */
function readBlobs(
  git: (args: readonly string[], input?: string) => Buffer,
  ids: readonly string[],
): Map<string, Buffer> {
  const unique = [...new Set(ids)];
  const blobs = new Map<string, Buffer>();
  if (unique.length === 0) return blobs;
  const out = git(["cat-file", "--batch"], `${unique.join("\n")}\n`);
  let offset = 0;
  while (offset < out.length) {
    const headerEnd = out.indexOf(0x0a, offset);
    const [id = "", , size = "0"] = out.subarray(offset, headerEnd).toString("utf8").split(" ");
    const start = headerEnd + 1;
    blobs.set(id, out.subarray(start, start + Number(size)));
    offset = start + Number(size) + 1;
  }
  return blobs;
}

function toFileChange(change: TreeChange, blobs: ReadonlyMap<string, Buffer>): RecordedFileChange {
  if (change.blob === undefined) return { path: change.path };
  return {
    path: change.path,
    content: blobs.get(change.blob) ?? Buffer.alloc(0),
    executable: change.executable,
  };
}
