import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createGitCheckpointer } from "../../src/checkpoint/git/index.ts";
import { initialRunState, reduce } from "../../src/journal/index.ts";
import { parseLockRecord } from "../../src/workspace/lock/index.ts";
import { runAndKill } from "../fixtures/journal-watch.ts";
import {
  codon,
  executions,
  hankweave,
  journal,
  onlyExecution,
  payloads,
  sandbox,
  writeHank,
} from "./support.ts";

/**
 * Scenario 16: a run killed mid-codon leaves a stale lock; the same command again detects it, marks the
 * old run crashed (its codon interrupted, never aborted), and continues from the last completed codon.
 * Once everything is done, the same command has nothing to do and exits 0.
 */

/** b holds on its first attempt: a command that records its process group and sleeps. */
const HOLD = "@run if [ ! -e hold.pid ]; then echo $$ > hold.pid; sleep 5; fi";

function holdPid(agentRoot: string): number | undefined {
  const path = join(agentRoot, "hold.pid");
  if (!existsSync(path)) return undefined;
  const pid = Number.parseInt(readFileSync(path, "utf8"), 10);
  return Number.isNaN(pid) ? undefined : pid;
}

/** Ends the hold command the killed run left behind (its own process group). */
function endHold(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

describe("resume after a kill (scenario 16)", () => {
  const sb = sandbox("resume");
  after(() => sb.remove());

  it("marks the killed run crashed, continues after the last completed codon, then has nothing to do", async () => {
    const hank = writeHank(join(sb.root, "hank"), [
      codon("a", "@append trail.txt a\n@write a.txt done", { checkpointedFiles: ["*.txt"] }),
      codon("b", `@append trail.txt b begin\n${HOLD}\n@append trail.txt b end`),
      codon("c", "@append trail.txt c"),
    ]);
    const args = [hank, "--headless"];
    const env = { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: sb.executions };
    const held = () => {
      const [layout] = executions(sb);
      return layout !== undefined && holdPid(layout.agentRoot) !== undefined;
    };
    const killed = await runAndKill(args, { env, baseDir: sb.executions }, { when: () => false, seen: held });
    const layout = onlyExecution(sb);
    endHold(holdPid(layout.agentRoot));
    assert.ok(killed.killed, killed.result.stderr);

    // A git process killed with the CLI (mid `update-index`) leaves its lock file behind.
    writeFileSync(join(layout.checkpointGitDir, "index.lock"), "");
    const lock = parseLockRecord(readFileSync(layout.lockPath, "utf8"));
    assert.equal(lock?.pid, killed.pid, "the killed process left its lock behind");
    const before = await journal(layout);
    const firstRun = payloads(before, "state.transition").find(
      (t) => t.transitionType === "RunStarted",
    )?.runId;

    const resumed = await hankweave(sb, args);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.ok(
      resumed.stderr.includes(`! an earlier run (${firstRun}) crashed; continuing it`),
      resumed.stderr,
    );
    assert.equal(existsSync(layout.lockPath), false, "the lock is released");

    const events = await journal(layout);
    const crashed = payloads(events, "state.transition").filter((t) => t.transitionType === "RunCrashed");
    assert.deepEqual(
      crashed.map((t) => [t.runId, t.transition.data]),
      [[firstRun, { detectedBy: "stale-lock" }]],
    );
    assert.deepEqual(
      payloads(events, "codon.started").map((s) => [s.codonId, s.attempt ?? 1]),
      [
        ["a", 1],
        ["b", 1],
        ["b", 2],
        ["c", 1],
      ],
      "a is not run again; b starts over",
    );
    assert.deepEqual(
      payloads(events, "codon.completed").map((c) => [c.codonId, c.success, c.endReasons?.codon]),
      [
        ["a", true, "completed"],
        ["b", false, "interrupted"],
        ["b", true, "completed"],
        ["c", true, "completed"],
      ],
      "recovery journaled b's interrupted attempt",
    );
    const crashIndex = events.findIndex(
      (e) => e.type === "state.transition" && e.data.transitionType === "RunCrashed",
    );
    const atCrash = events.slice(0, crashIndex + 1).reduce(reduce, initialRunState());
    const interrupted = atCrash.codons.find((c) => c.id === "b");
    assert.deepEqual([interrupted?.status, interrupted?.failedDuring], ["failed", "running"]);
    assert.deepEqual(interrupted?.endReasons, {
      stream: "interrupted",
      toolBatch: "interrupted",
      turn: "interrupted",
      codon: "interrupted",
    });
    assert.ok(
      payloads(events, "info").some(
        (i) => i.message === "Removed git lock files left by a crash: index.lock",
      ),
    );
    const checkpointer = createGitCheckpointer({
      gitDir: layout.checkpointGitDir,
      workTree: layout.agentRoot,
      clock: { now: () => Date.now() },
    });
    await checkpointer.init();
    const secondRun = payloads(events, "state.transition").filter((t) => t.transitionType === "RunStarted")[1]
      ?.runId;
    assert.deepEqual(
      (await checkpointer.list(secondRun)).map((c) => [c.codonId, c.checkpointType]),
      [
        ["b", "completed"],
        ["c", "completed"],
      ],
      "checkpoints go on after the crash",
    );
    const state = events.reduce(reduce, initialRunState());
    assert.deepEqual(
      state.runs.map((r) => r.status),
      ["interrupted", "completed"],
    );
    assert.equal(
      readFileSync(join(layout.agentRoot, "trail.txt"), "utf8"),
      "a\nb begin\nb end\nc\n",
      "b restarted on the checkpointed files it started from (*.txt is checkpointed by a)",
    );

    const again = await hankweave(sb, args);
    assert.equal(again.code, 0, again.stderr);
    assert.ok(
      again.stderr.includes(
        `Resumed completed execution ${layout.executionDir} — nothing to do. All codons already completed. Use --start-new to run fresh.`,
      ),
      again.stderr,
    );
    assert.equal((await journal(layout)).length, events.length, "nothing was journaled");
    assert.equal(executions(sb).length, 1);
  });
});
