import assert from "node:assert/strict";
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { after, codon, hankOf, sandbox } from "./support.ts";

const HANK = hankOf([
  codon("a", "@write a.md from a", { checkpointedFiles: ["a.md"] }),
  {
    type: "loop",
    id: "L",
    name: "Loop",
    terminateOn: { type: "iterationLimit", limit: 3 },
    codons: [codon("x", "@append log.md one more line", { checkpointedFiles: ["log.md"] })],
  },
  codon("b", "@write b.md from b", { checkpointedFiles: ["b.md"] }),
]);

describe("hankweave rollback inside a loop", () => {
  it("drops the iterations after the target, so the rerun picks the loop up there", async () => {
    const box = sandbox(HANK);
    try {
      assert.equal((await box.cli([box.hankDir, "--headless", "-e", box.exec])).code, 0);
      assert.equal(box.file("log.md"), "one more line\n".repeat(3));

      const rolled = await box.cli(["rollback", "x#1", "--type", "completed", "-e", box.exec]);
      assert.equal(rolled.code, 0, rolled.stderr);
      assert.equal(box.file("log.md"), "one more line\n".repeat(2));
      assert.equal(box.file("b.md"), null);

      const marker = box.journal().length;
      const rerun = await box.cli([box.hankDir, "--headless", "-e", box.exec]);
      assert.equal(rerun.code, 0, rerun.stderr);
      const events = box.journal();
      assert.deepEqual(
        after(events, marker, "codon.started").map((c) => c.codonId),
        ["x#2", "b"],
      );
      assert.deepEqual(
        after(events, marker, "loop.iteration.completed").map((l) => [l.iteration, l.isFinal]),
        [[2, true]],
      );
      assert.equal(box.file("log.md"), "one more line\n".repeat(3));
    } finally {
      box.remove();
    }
  });

  it("reads a config id as its latest execution: the start of x is the state after x#1", async () => {
    const box = sandbox(HANK);
    try {
      assert.equal((await box.cli([box.hankDir, "--headless", "-e", box.exec])).code, 0);
      const marker = box.journal().length;
      const rolled = await box.cli(["rollback", "x", "--type", "start", "-e", box.exec]);
      assert.equal(rolled.code, 0, rolled.stderr);
      const [completed] = after(box.journal(), marker, "rollback.completed");
      assert.equal(completed?.codonId, "x#2");
      assert.equal(completed?.checkpointType, "start");
      assert.equal(box.file("log.md"), "one more line\n".repeat(2));
      const rerun = await box.cli([box.hankDir, "--headless", "-e", box.exec]);
      assert.equal(rerun.code, 0, rerun.stderr);
      assert.deepEqual(
        after(box.journal(), marker, "codon.started").map((c) => c.codonId),
        ["x#2", "b"],
      );
    } finally {
      box.remove();
    }
  });

  it("rebuilds the plan from the journal when the snapshot predates the rollback (a crash before it was saved)", async () => {
    const box = sandbox(HANK);
    try {
      assert.equal((await box.cli([box.hankDir, "--headless", "-e", box.exec])).code, 0);
      const state = join(box.exec, ".hankweave", "state.json");
      copyFileSync(state, join(box.dir, "state-before.json"));
      assert.equal((await box.cli(["rollback", "x#0", "--type", "completed", "-e", box.exec])).code, 0);
      copyFileSync(join(box.dir, "state-before.json"), state);
      rmSync(join(box.exec, ".hankweave", "state.json.bak"), { force: true });
      const marker = box.journal().length;
      const rerun = await box.cli([box.hankDir, "--headless", "-e", box.exec]);
      assert.equal(rerun.code, 0, rerun.stderr);
      assert.deepEqual(
        after(box.journal(), marker, "codon.started").map((c) => c.codonId),
        ["x#1", "x#2", "b"],
      );
    } finally {
      box.remove();
    }
  });
});
