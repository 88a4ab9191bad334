import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createGitCheckpointer } from "../../src/checkpoint/git/index.ts";
import type { Checkpointer } from "../../src/checkpoint/index.ts";
import { runCli } from "../../src/cli/run-cli.ts";
import type { Clock } from "../../src/engine/index.ts";
import { JournalWriter } from "../../src/journal/index.ts";
import { type ExecutionResult, runExecution } from "../../src/runner/index.ts";
import { type ExecutionLayout, executionLayout } from "../../src/workspace/execution-layout.ts";
import { codon, sandbox, writeHank } from "../workspace/support.ts";
import { agentFile, copyTree, runOptions, threadOf } from "./support.ts";

/**
 * Item: a rollback never wedges an execution. A finished execution (a, b, c appending to trail.txt,
 * all checkpointed) is copied for each case. Rolling back works after the files changed behind the
 * checkpoints (a user's edit, in a copied execution whose files all have new stat data); a rollback
 * interrupted half-way blocks the next run with a message that offers to finish it or abandon it, and
 * either way the execution runs again.
 */

function cliIo(cwd: string) {
  let err = "";
  const output = (sink: (text: string) => void) => ({ write: sink, isTTY: false, columns: undefined });
  return {
    io: {
      cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", NO_COLOR: "1" },
      stdout: output(() => undefined),
      stderr: output((text) => {
        err += text;
      }),
      runtime: {
        version: "test",
        platform: process.platform,
        arch: process.arch,
        nodeVersion: process.version,
      },
    },
    stderr: () => err,
  };
}

async function hankweave(args: readonly string[], cwd: string): Promise<{ code: number; stderr: string }> {
  const { io, stderr } = cliIo(cwd);
  const code = await runCli(args, io);
  return { code, stderr: stderr() };
}

const trail = (layout: ExecutionLayout) => readFileSync(agentFile(layout, "trail.txt"), "utf8");

function outcome(result: ExecutionResult): string {
  return result.kind === "ran" ? result.outcome : result.kind;
}

describe("a rollback never wedges an execution", () => {
  const box = sandbox("rollback-wedge");
  const finished = join(box.root, "finished");
  const killedMidCommit = join(box.root, "killed-mid-commit");
  let hank = "";
  before(async () => {
    const all = { checkpointedFiles: ["**"] };
    hank = writeHank(join(box.root, "hank"), [
      codon("a", "@append trail.txt a", all),
      codon("b", "@append trail.txt b", all),
      codon("c", "@append trail.txt c", all),
    ]);
    // The disk as a kill right after b's completed checkpoint leaves it, copied: new stat data everywhere.
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
          if (input.codonId === "b" && input.type === "completed")
            copyTree(layout.executionDir, killedMidCommit);
          return record;
        },
      };
    };
    const first = await runExecution(runOptions(box, hank, { execution: finished, checkpointer }));
    assert.equal(outcome(first), "completed");
  });
  after(() => box.remove());

  it("rolls back an execution a kill left mid-commit and a copy gave new stat data, then runs on", async () => {
    const layout = executionLayout(killedMidCommit);
    const rolled = await hankweave(["rollback", "a", "-e", layout.executionDir], box.root);
    assert.equal(rolled.code, 0, rolled.stderr);
    assert.equal(trail(layout), "a\n");
    assert.equal(
      outcome(await runExecution(runOptions(box, hank, { execution: layout.executionDir }))),
      "completed",
    );
    assert.equal(trail(layout), "a\nb\nc\n");
  });

  it("rolls back after a user edit, in a copied execution, and the execution runs on from there", async () => {
    const layout = executionLayout(copyTree(finished, join(box.root, "edited")));
    writeFileSync(agentFile(layout, "trail.txt"), "edited by hand\n");
    const rolled = await hankweave(["rollback", "a", "-e", layout.executionDir], box.root);
    assert.equal(rolled.code, 0, rolled.stderr);
    assert.equal(trail(layout), "a\n");
    assert.equal(
      outcome(await runExecution(runOptions(box, hank, { execution: layout.executionDir }))),
      "completed",
    );
    assert.equal(trail(layout), "a\nb\nc\n");
  });

  it("rolls back past the git lock files a kill left in the checkpoint store, saying it removed them", async () => {
    const layout = executionLayout(copyTree(finished, join(box.root, "locks-left")));
    for (const lock of ["index.lock", "HEAD.lock"]) writeFileSync(join(layout.checkpointGitDir, lock), "");
    const rolled = await hankweave(["rollback", "a", "-e", layout.executionDir], box.root);
    assert.equal(rolled.code, 0, rolled.stderr);
    assert.equal(trail(layout), "a\n");
    const journal = readFileSync(layout.eventsPath, "utf8");
    assert.match(
      journal,
      /Removed git lock files left by a crash: (index\.lock, HEAD\.lock|HEAD\.lock, index\.lock)/,
    );
  });

  /** A copy whose journal shows a rollback to a's checkpoint that started, restored trail.txt, and died. */
  async function interrupted(name: string): Promise<{ layout: ExecutionLayout; target: string }> {
    const layout = executionLayout(copyTree(finished, join(box.root, name)));
    const target = (await threadOf(layout)).find(
      (c) => c.codonId === "a" && c.checkpointType === "completed",
    );
    assert.ok(target !== undefined);
    const writer = JournalWriter.open(layout.eventsPath);
    writer.append({
      type: "rollback.started",
      data: {
        fromRun: "r",
        fromCodon: "c",
        toCodon: "a",
        toCheckpoint: target.sha,
        checkpointType: "completed",
        codonsToProcess: ["b", "c"],
      },
    });
    writer.close();
    writeFileSync(agentFile(layout, "trail.txt"), "a\n");
    return { layout, target: target.sha };
  }

  it("an interrupted rollback blocks the run with both ways out; abandoning it puts the files back", async () => {
    const { layout } = await interrupted("abandoned");
    const blocked = await runExecution(runOptions(box, hank, { execution: layout.executionDir }));
    assert.equal(blocked.kind, "refused");
    const message = blocked.kind === "refused" ? blocked.message : "";
    assert.ok(
      message.includes(`abandon it:  hankweave rollback --abandon -e ${layout.executionDir}`),
      message,
    );
    const abandoned = await hankweave(["rollback", "--abandon", "-e", layout.executionDir], box.root);
    assert.equal(abandoned.code, 0, abandoned.stderr);
    assert.equal(trail(layout), "a\nb\nc\n", "the files are back where the execution stood");
    assert.equal(
      outcome(await runExecution(runOptions(box, hank, { execution: layout.executionDir }))),
      "nothing-to-do",
    );
    const again = await hankweave(["rollback", "--abandon", "-e", layout.executionDir], box.root);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /no interrupted rollback to abandon/);
  });

  it("an interrupted rollback can be finished with the command the refusal prints", async () => {
    const { layout, target } = await interrupted("finished-late");
    const finishedLate = await hankweave(
      ["rollback", target.slice(0, 12), "-e", layout.executionDir],
      box.root,
    );
    assert.equal(finishedLate.code, 0, finishedLate.stderr);
    assert.equal(
      outcome(await runExecution(runOptions(box, hank, { execution: layout.executionDir }))),
      "completed",
    );
    assert.equal(trail(layout), "a\nb\nc\n");
  });
});
