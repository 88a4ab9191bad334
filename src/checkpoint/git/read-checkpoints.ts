import { parseCheckpointMessage } from "../checkpoint-message.ts";
import { type CheckpointRecord, runBranch } from "../checkpointer.ts";
import type { RunGit } from "./run-git.ts";

/** One record per commit: RS, full id, US, raw message. The message never holds these (see checkpoint-message). */
const LOG_FORMAT = "--format=%x1e%H%x1f%B";

/**
 * The checkpoints reachable from `revisions` (oldest first, parents before children), read back from
 * their commit trailers; commits without them (the initial one) are skipped. `runId` keeps only that
 * run's own checkpoints, not those it inherited from its base.
 */
export async function readCheckpoints(
  git: RunGit,
  revisions: readonly string[],
  runId?: string,
): Promise<CheckpointRecord[]> {
  const result = await git({ args: ["log", LOG_FORMAT, "--date-order", "--reverse", ...revisions, "--"] });
  const records: CheckpointRecord[] = [];
  for (const chunk of result.stdout.split("\x1e")) {
    const split = chunk.indexOf("\x1f");
    if (split < 0) continue;
    const meta = parseCheckpointMessage(chunk.slice(split + 1));
    if (meta === undefined || (runId !== undefined && meta.runId !== runId)) continue;
    records.push({ sha: chunk.slice(0, split).trim(), ...meta, branch: runBranch(meta.runId) });
  }
  return records;
}
