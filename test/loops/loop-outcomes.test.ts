import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { driveRun } from "../../src/loops/coordinator/drive-run.ts";
import { countGate, INCREMENT, loopFixture } from "./loop-fixture.ts";

const GATE = (script: string) => `[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n${script}`;

describe("loop runs end in every outcome, for real", () => {
  test("done in a few generations, each generation's codons completed once", async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: `[contract]\ngoal = "count to 3"\n${GATE("")}`,
      scripts: { "check.sh": countGate(3) },
    });
    try {
      const admitted = await fx.admit();
      assert.equal(admitted.kind, "admitted");
      if (admitted.kind !== "admitted") return;
      const end = await driveRun(admitted.run.id, fx.deps(), { follow: true });
      assert.equal(end.kind, "terminal");
      if (end.kind !== "terminal") return;
      assert.deepEqual([end.run.state, end.run.cause], ["done", "gates_passed"]);
      const generations = await fx.store.generations(end.run.id);
      assert.deepEqual(
        generations.map((g) => g.state),
        ["completed", "completed", "completed"],
      );
      assert.deepEqual(
        generations.map((g) => g.facts.gates[0]?.verdict),
        ["revise", "revise", "pass"],
      );
      assert.equal(end.run.meters.generations, 3);
      assert.ok(generations.every((g) => g.layers.length === 1 && g.layers[0]?.codon === "completed"));
      const events = await fx.store.events(0, end.run.id);
      assert.ok(events.some((e) => e.type === "run.precheck"));
    } finally {
      await fx.remove();
    }
  });

  test("the iteration cap before the gates pass: exhausted", async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: `[contract]\ngoal = "count to 9"\niteration_cap = 2\n${GATE("")}`,
      scripts: { "check.sh": countGate(9) },
    });
    try {
      const admitted = await fx.admit();
      if (admitted.kind !== "admitted") throw new Error(admitted.kind);
      const end = await driveRun(admitted.run.id, fx.deps(), { follow: true });
      assert.equal(
        end.kind === "terminal" && `${end.run.state}: ${end.run.cause}`,
        "exhausted: iteration_cap",
      );
    } finally {
      await fx.remove();
    }
  });

  test("a body that changes nothing: stalled no_progress_hash", async () => {
    const fx = await loopFixture({
      body: ["@write same.txt unchanged\n@say nothing new"],
      toml: `[contract]\ngoal = "never"\n[contract.no_progress]\nwindow = 2\n${GATE("")}`,
      scripts: { "check.sh": "#!/bin/sh\nexit 1\n" },
    });
    try {
      const admitted = await fx.admit();
      if (admitted.kind !== "admitted") throw new Error(admitted.kind);
      const end = await driveRun(admitted.run.id, fx.deps(), { follow: true });
      assert.equal(
        end.kind === "terminal" && `${end.run.state}: ${end.run.cause}`,
        "stalled: no_progress_hash",
      );
      assert.equal((await fx.store.generations(admitted.run.id)).length, 3);
    } finally {
      await fx.remove();
    }
  });

  test("a gate that already passes before generation 1: no-op precheck_clean", async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: `[contract]\ngoal = "g"\n${GATE("")}`,
      scripts: { "check.sh": "#!/bin/sh\nexit 0\n" },
    });
    try {
      const admitted = await fx.admit();
      if (admitted.kind !== "admitted") throw new Error(admitted.kind);
      const end = await driveRun(admitted.run.id, fx.deps(), { follow: true });
      assert.equal(end.kind === "terminal" && `${end.run.state}: ${end.run.cause}`, "no-op: precheck_clean");
      assert.equal((await fx.store.generations(admitted.run.id)).length, 0);
    } finally {
      await fx.remove();
    }
  });
});
