import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createGitCheckpointer } from "../../src/checkpoint/git/index.ts";
import type { Checkpointer } from "../../src/checkpoint/index.ts";
import type { Clock } from "../../src/engine/index.ts";
import type { JournaledEvent } from "../../src/journal/index.ts";
import { type ExecutionLayout, executionLayout } from "../../src/workspace/execution-layout.ts";
import { codon, journal, sandbox, writeHank } from "../workspace/support.ts";
import {
  agentFile,
  cancelHeld,
  copyExecution,
  holdRun,
  runOptions,
  runSkippingSleeps,
  threadOf,
} from "./support.ts";

/**
 * Item: an interrupted codon restarts clean. b appends a begin line, then sleeps (on a fake clock only
 * the test moves); its rig appends to rig.txt. Whether the run is then cancelled or the disk is left as
 * a crash would leave it, the restart must put b's checkpointed files back to where b started, so the
 * finished workspace is byte for byte what an uninterrupted run leaves.
 */

const SLEEP_MS = 60_000;
const CHECKPOINTED = { checkpointedFiles: ["**"] };

function writeTestHank(dir: string): string {
  return writeHank(dir, [
    codon("a", "@append trail.txt a", CHECKPOINTED),
    codon("b", `@append trail.txt b begin\n@sleep ${SLEEP_MS}\n@append trail.txt b end`, {
      ...CHECKPOINTED,
      rigSetup: [{ type: "command", command: { run: "echo rigged >> rig.txt" } }],
    }),
    codon("c", "@append trail.txt c", CHECKPOINTED),
  ]);
}

const UNINTERRUPTED = { trail: "a\nb begin\nb end\nc\n", rig: "rigged\n" };

/** b is mid-session: its begin line is written and it sleeps. */
const bWorking = (event: JournaledEvent) => event.type === "tool.result" && event.data.codonId === "b";

function workspaceOf(dir: string) {
  const layout = executionLayout(dir);
  return {
    trail: readFileSync(agentFile(layout, "trail.txt"), "utf8"),
    rig: readFileSync(agentFile(layout, "rig.txt"), "utf8"),
  };
}

describe("an interrupted codon restarts clean", () => {
  const box = sandbox("clean-restart");
  after(() => box.remove());
  const hank = writeTestHank(join(box.root, "hank"));

  it("after a crash: the attempt is journaled interrupted and b re-runs on the files it started from", async () => {
    const held = await holdRun(
      runOptions(box, hank, { execution: join(box.root, "held") }),
      bWorking,
      SLEEP_MS,
    );
    const crashed = copyExecution(held.layout, join(box.root, "crashed"));
    await cancelHeld(held);

    const resumed = await runSkippingSleeps(runOptions(box, hank, { execution: crashed }), SLEEP_MS);
    assert.equal(resumed.kind, "ran", JSON.stringify(resumed));
    assert.equal(resumed.kind === "ran" && resumed.outcome, "completed");
    assert.deepEqual(workspaceOf(crashed), UNINTERRUPTED);

    const events = await journal(executionLayout(crashed));
    const bEnds = events.flatMap((e) =>
      e.type === "codon.completed" && e.data.codonId === "b" ? [e.data] : [],
    );
    assert.deepEqual(
      bEnds.map((d) => [d.success, d.endReasons?.codon, d.exitStatus.type, d.attempt]),
      [
        [false, "interrupted", "none", 1],
        [true, "completed", "success", 2],
      ],
    );
    const thread = await threadOf(executionLayout(crashed));
    assert.deepEqual(
      thread.map((c) => `${c.codonId} ${c.checkpointType}`),
      ["a completed", "b rig-setup", "b completed", "c completed"],
      "the interrupted attempt's rig-setup checkpoint is off the line",
    );
  });

  it("after a delivered cancel: the attempt is journaled aborted, and the resume restarts b clean", async () => {
    const execution = join(box.root, "cancelled");
    const held = await holdRun(runOptions(box, hank, { execution }), bWorking, SLEEP_MS);
    const stopped = await cancelHeld(held);
    assert.equal(stopped.kind === "ran" && stopped.outcome, "aborted");

    const resumed = await runSkippingSleeps(runOptions(box, hank, { execution }), SLEEP_MS);
    assert.equal(resumed.kind === "ran" && resumed.outcome, "completed", JSON.stringify(resumed));
    assert.deepEqual(workspaceOf(execution), UNINTERRUPTED);
    const events = await journal(executionLayout(execution));
    const bEnds = events.flatMap((e) =>
      e.type === "codon.completed" && e.data.codonId === "b" ? [e.data] : [],
    );
    assert.deepEqual(
      bEnds.map((d) => d.endReasons?.codon),
      ["aborted", "completed"],
    );
  });

  it("a kill between a codon's completed checkpoint and its journal record leaves one completion on the line", async () => {
    const execution = join(box.root, "committed");
    const crashed = join(box.root, "committed-crash");
    const checkpointer = (layout: ExecutionLayout, clock: Clock): Checkpointer => {
      const git = createGitCheckpointer({
        gitDir: layout.checkpointGitDir,
        workTree: layout.agentRoot,
        clock,
      });
      return {
        ...git,
        async commit(input) {
          const record = await git.commit(input);
          // The disk as a kill right after this commit leaves it: codon.completed is not journaled yet.
          if (input.codonId === "b" && input.type === "completed") copyExecution(layout, crashed);
          return record;
        },
      };
    };
    const first = await runSkippingSleeps(runOptions(box, hank, { execution, checkpointer }), SLEEP_MS);
    assert.equal(first.kind === "ran" && first.outcome, "completed");

    const resumed = await runSkippingSleeps(runOptions(box, hank, { execution: crashed }), SLEEP_MS);
    assert.equal(resumed.kind === "ran" && resumed.outcome, "completed", JSON.stringify(resumed));
    assert.deepEqual(workspaceOf(crashed), UNINTERRUPTED);
    const thread = await threadOf(executionLayout(crashed));
    assert.deepEqual(
      thread.filter((c) => c.checkpointType === "completed").map((c) => c.codonId),
      ["a", "b", "c"],
      "one completed checkpoint per codon on the line",
    );
    const completions = (await journal(executionLayout(crashed))).flatMap((e) =>
      e.type === "codon.completed" && e.data.success ? [e.data.codonId] : [],
    );
    assert.deepEqual(completions, ["a", "b", "c"]);
  });

  it("after a failed run: the next start puts b's files back before b runs again (rollback to the last success)", async () => {
    const failing = writeHank(join(box.root, "failing-hank"), [
      codon("a", "@append trail.txt a", CHECKPOINTED),
      codon("b", "@append trail.txt b\n@fail attempts=1 Your credit balance is too low", CHECKPOINTED),
      codon("c", "@append trail.txt c", CHECKPOINTED),
    ]);
    const execution = join(box.root, "failed");
    const first = await runSkippingSleeps(runOptions(box, failing, { execution }), SLEEP_MS);
    assert.equal(first.kind === "ran" && first.outcome, "failed");
    const layout = executionLayout(execution);
    assert.equal(readFileSync(agentFile(layout, "trail.txt"), "utf8"), "a\nb\n", "the failed attempt wrote");
    const resumed = await runSkippingSleeps(runOptions(box, failing, { execution }), SLEEP_MS);
    assert.equal(resumed.kind === "ran" && resumed.outcome, "completed", JSON.stringify(resumed));
    assert.equal(
      readFileSync(agentFile(layout, "trail.txt"), "utf8"),
      "a\nb\nc\n",
      "b ran once on a's files",
    );
  });

  it("refuses an -o that is a file before anything is created", async () => {
    const file = join(box.root, "not-a-dir");
    writeFileSync(file, "x");
    const execution = join(box.root, "never-made");
    const result = await runSkippingSleeps(runOptions(box, hank, { execution, outputDir: file }), SLEEP_MS);
    assert.deepEqual(
      result.kind === "refused" && result.message,
      `The output directory ${file} (-o) is a file, not a directory. Fix: pass -o a directory you can write to (it is created when missing).`,
    );
    assert.equal(existsSync(execution), false);
  });
});
