import { join } from "node:path";
import { runCheckpointerConformance } from "../../testing/checkpoint-conformance/index.ts";
import { createGitCheckpointer } from "./git-checkpointer.ts";

runCheckpointerConformance("git", (dirs) =>
  createGitCheckpointer({
    gitDir: join(dirs.stateDir, "checkpoints", ".hankweavecheckpoints"),
    workTree: dirs.workTree,
    clock: dirs.clock,
  }),
);

runCheckpointerConformance("git, checkpoints appended to a run pack", (dirs) =>
  createGitCheckpointer({
    gitDir: join(dirs.stateDir, "checkpoints", ".hankweavecheckpoints"),
    workTree: dirs.workTree,
    clock: dirs.clock,
    runPack: true,
  }),
);
