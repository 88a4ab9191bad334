import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkpointLists } from "./checkpoint-list.ts";
import { checkpoint } from "./test-journal.ts";

describe("checkpointLists", () => {
  it("gives one checkpoint.list payload per run with checkpoints, in run order", () => {
    const records = [
      checkpoint("run-1", "a", "rig-setup", "a0"),
      checkpoint("run-1", "a", "error", "a1"),
      checkpoint("run-2", "a", "completed", "a2"),
    ];
    const lists = checkpointLists(
      [
        { kind: "run", runId: "run-1" },
        { kind: "run", runId: "run-3" },
        { kind: "run", runId: "run-2" },
      ],
      records,
      "run-2",
    );
    assert.deepEqual(lists, [
      {
        runId: "run-1",
        checkpoints: [
          {
            codonId: "a",
            codonName: "A",
            checkpointType: "rig-setup",
            sha: records[0]?.sha,
            status: "preparing",
            timestamp: "2025-01-01T00:00:00.000Z",
          },
          {
            codonId: "a",
            codonName: "A",
            checkpointType: "error",
            sha: records[1]?.sha,
            status: "failed",
            timestamp: "2025-01-01T00:00:00.000Z",
          },
        ],
        currentBranch: "run/run-2",
      },
      {
        runId: "run-2",
        checkpoints: [
          {
            codonId: "a",
            codonName: "A",
            checkpointType: "completed",
            sha: records[2]?.sha,
            status: "completed",
            timestamp: "2025-01-01T00:00:00.000Z",
          },
        ],
        currentBranch: "run/run-2",
      },
    ]);
  });
});
