import type { Checkpointer, CheckpointRecord } from "../../src/checkpoint/index.ts";

const NO_SHA = "0".repeat(40);

/**
 * A checkpointer that records nothing: the CLI's workspace hooks with the git work taken out, so the
 * `journal` mode measures exactly what the CLI persists besides checkpoints (and follows it when it
 * changes, e.g. how often the state snapshot is written).
 */
export function createNullCheckpointer(): Checkpointer {
  let runId = "";
  return {
    init: async () => {},
    startRun: async (id) => {
      runId = id;
      return { runId: id, branch: `run/${id}`, baseSha: NO_SHA };
    },
    commit: async (input): Promise<CheckpointRecord> => ({
      sha: NO_SHA,
      codonId: input.codonId,
      codonName: input.codonName,
      checkpointType: input.type,
      runId,
      timestamp: new Date().toISOString(),
      branch: `run/${runId}`,
    }),
    list: async () => [],
    resolve: async () => undefined,
    restore: async (sha) => ({ sha, restored: [], removed: [] }),
    filesAt: async () => [],
  };
}
