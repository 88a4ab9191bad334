/**
 * Child process of `kill-during-checkpoints.test.ts`: opens the git store given on the command line and
 * checkpoints forever, appending a line to `log.txt` before each commit and printing each commit's id
 * once it has returned. The test kills it at arbitrary moments. A fourth argument `pack` appends the
 * checkpoints to a run pack sealed every few milliseconds (`RunPack`), so kills land inside seals too.
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { createGitCheckpointer } from "../../src/checkpoint/git/index.ts";
import { clearStaleGitLocks } from "../../src/runner/recovery/clear-stale-git-locks.ts";

const [gitDir, workTree, runId, mode] = process.argv.slice(2);
if (gitDir === undefined || workTree === undefined || runId === undefined) {
  throw new Error("usage: commit-forever <gitDir> <workTree> <runId>");
}
// Each start follows a kill of the one before: it recovers as a run's start does (`recoverCrash`).
clearStaleGitLocks(gitDir);
const checkpointer = createGitCheckpointer({
  gitDir,
  workTree,
  clock: { now: () => Date.now() },
  consolidateEvery: 16,
  ...(mode === "pack" && { runPack: true, sealLagMs: 3 }),
});
await checkpointer.init();
await checkpointer.startRun(runId);
for (let i = 0; ; i++) {
  appendFileSync(join(workTree, "log.txt"), `line ${i}\n`);
  const record = await checkpointer.commit({
    codonId: `c#${i}`,
    codonName: "append",
    type: "completed",
    globs: ["log.txt"],
    changedPaths: ["log.txt"],
  });
  process.stdout.write(`${record.sha}\n`);
}
