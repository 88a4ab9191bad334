import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createGitCheckpointer } from "../../src/checkpoint/git/index.ts";
import { readSnapshot } from "../../src/journal/index.ts";
import { codon, hankweave, journal, onlyExecution, payloads, sandbox, writeHank } from "./support.ts";

/** Scenario 14: a failing rig command fails its codon while preparing, unless the failure is allowed. */

function rigHank(dir: string, allowFailure?: boolean): string {
  const op = {
    type: "command",
    command: { run: "echo rigging && exit 1" },
    ...(allowFailure && { allowFailure }),
  };
  return writeHank(dir, [
    codon("a", "@write a.txt from a", { rigSetup: [op], checkpointedFiles: ["a.txt"] }),
    codon("b", "@write b.txt from b"),
  ]);
}

describe("rig setup failures (scenario 14)", { concurrency: true }, () => {
  const boxes: Array<{ remove(): void }> = [];
  after(() => {
    for (const box of boxes) box.remove();
  });
  const box = (name: string) => {
    const made = sandbox(name);
    boxes.push(made);
    return made;
  };

  it("fails the codon during preparing and stops the run (exit 1)", async () => {
    const sb = box("rig-fail");
    const ran = await hankweave(sb, [rigHank(join(sb.root, "hank")), "--headless"]);
    assert.equal(ran.code, 1, ran.stderr);
    assert.match(ran.stderr, /! rig setup of a failed \(command_failed\)/);
    assert.match(ran.stderr, /Failed codon: a \(during preparing\)/);
    const layout = onlyExecution(sb);
    const events = await journal(layout);
    assert.deepEqual(payloads(events, "rig.setup.failed"), [
      { codonId: "a", failureType: "command_failed", exitCode: 1, commandIndex: 0, ignored: false },
    ]);
    const [done, ...others] = payloads(events, "codon.completed");
    assert.deepEqual(others, []);
    assert.equal(done?.success, false);
    assert.equal(done?.failedDuring, "preparing");
    assert.equal(
      done?.failureReason?.message,
      "Rig setup failed: Command failed with exit code 1: echo rigging && exit 1",
    );
    assert.deepEqual(payloads(events, "codon.started"), [], "the agent never started");
    assert.deepEqual(
      payloads(events, "rig.output").map((o) => [o.codonId, o.stream, o.line]),
      [["a", "stdout", "rigging"]],
    );
    const snapshot = readSnapshot(layout.stateDir);
    assert.ok(snapshot.found);
    const record = snapshot.snapshot.runState.codons.find((c) => c.id === "a");
    assert.deepEqual([record?.status, record?.failedDuring], ["failed", "preparing"]);
    assert.equal(snapshot.snapshot.runState.runs[0]?.status, "failed");
    assert.equal(existsSync(join(layout.agentRoot, "a.txt")), false);
    assert.equal(existsSync(join(layout.agentRoot, "b.txt")), false);
    const checkpointer = createGitCheckpointer({
      gitDir: layout.checkpointGitDir,
      workTree: layout.agentRoot,
      clock: { now: () => Date.now() },
    });
    await checkpointer.init();
    assert.deepEqual(
      (await checkpointer.list()).map((c) => [c.codonId, c.checkpointType]),
      [["a", "error"]],
      "no rig-setup checkpoint after a failed rig; an error checkpoint instead",
    );
  });

  for (const [how, allow, flags] of [
    ["allowFailure: true", true, []],
    ["--ignore-rig-failures", undefined, ["--ignore-rig-failures"]],
  ] as const) {
    it(`lets the codon proceed with ${how}`, async () => {
      const sb = box("rig-allowed");
      const ran = await hankweave(sb, [rigHank(join(sb.root, "hank"), allow), "--headless", ...flags]);
      assert.equal(ran.code, 0, ran.stderr);
      assert.match(ran.stderr, /! rig setup of a failed \(command_failed\), ignored/);
      const layout = onlyExecution(sb);
      const events = await journal(layout);
      assert.deepEqual(payloads(events, "rig.setup.failed"), [
        { codonId: "a", failureType: "command_failed", exitCode: 1, commandIndex: 0, ignored: true },
      ]);
      const reason = allow ? "allowFailure=true" : "--ignore-rig-failures";
      assert.deepEqual(
        payloads(events, "error")
          .filter((e) => !e.fatal)
          .map((e) => [e.message, e.severity]),
        [
          [
            `Rig setup operation failed but continuing (${reason}): Command failed with exit code 1: echo rigging && exit 1`,
            "operation",
          ],
        ],
      );
      assert.deepEqual(
        payloads(events, "codon.completed").map((c) => [c.codonId, c.success]),
        [
          ["a", true],
          ["b", true],
        ],
      );
      const rig = payloads(events, "rig.setup.completed");
      assert.deepEqual(
        rig.map((r) => [r.codonId, r.createdCheckpoint]),
        [["a", true]],
      );
      assert.equal(readFileSync(join(layout.agentRoot, "a.txt"), "utf8"), "from a");
      assert.equal(readFileSync(join(layout.agentRoot, "b.txt"), "utf8"), "from b");
    });
  }
});
