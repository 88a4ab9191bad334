import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { driveRun } from "../../src/loops/coordinator/drive-run.ts";
import { workspaceOf } from "../../src/loops/coordinator/run-body.ts";
import { countGate, INCREMENT, loopFixture } from "./loop-fixture.ts";

const ITEMS = `#!/bin/sh\necho '[{"id": "pkg-a"}, {"id": "pkg-b"}, {"id": "pkg-c", "path": "packages/c"}]'\n`;
const toml = `[fan_out]\nitems = ["./items.sh"]\nwidth = 4\n[contract]\ngoal = "every package counts to 2"\n[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`;
const BODY = `${INCREMENT}\n@run printf '%s %s' "$HANKWEAVE_LOOP_ITEM_ID" "$HANKWEAVE_LOOP_KEY" > item.txt`;

describe("fan-out: one body run per item", { concurrency: 2 }, () => {
  test("each item runs on its own workspace, gated per item; the run is done when every item passes", async () => {
    const fx = await loopFixture({
      body: [BODY],
      toml,
      scripts: { "items.sh": ITEMS, "check.sh": countGate(2) },
    });
    try {
      const admitted = await fx.admit({ limitConfig: { ceilings: { fan_out_width: 8 } } });
      if (admitted.kind !== "admitted") throw new Error(admitted.kind);
      assert.equal(admitted.run.contract.limits.fan_out_width, 4);
      const end = await driveRun(admitted.run.id, fx.deps(), { follow: true });
      assert.equal(end.kind === "terminal" && `${end.run.state}: ${end.run.cause}`, "done: gates_passed");
      const generations = await fx.store.generations(admitted.run.id);
      assert.deepEqual(
        generations.map((g) => g.facts.gates[0]?.verdict),
        ["revise", "pass"],
      );
      assert.deepEqual(
        generations[0]?.layers.map((l) => l.codonId),
        ["pkg-a/step1", "pkg-b/step1", "pkg-c/step1"],
      );
      for (const id of ["pkg-a", "pkg-b", "pkg-c"]) {
        const workspace = workspaceOf(join(admitted.run.dir, "items", id));
        assert.equal(readFileSync(join(workspace, "count"), "utf8").trim(), "2");
        assert.equal(
          readFileSync(join(workspace, "item.txt"), "utf8"),
          `${id} ${admitted.run.key}#item:${id}`,
        );
      }
    } finally {
      await fx.remove();
    }
  });

  test("more items than the ceiling: exhausted fan_out_ceiling; the width is clamped, never an outcome", async () => {
    const fx = await loopFixture({
      body: [BODY],
      toml,
      scripts: { "items.sh": ITEMS, "check.sh": countGate(2) },
    });
    try {
      const admitted = await fx.admit({ limitConfig: { ceilings: { fan_out_width: 2 } } });
      if (admitted.kind !== "admitted") throw new Error(admitted.kind);
      assert.equal(admitted.run.contract.limits.fan_out_width, 2);
      assert.equal(admitted.clamped.length, 1);
      const end = await driveRun(admitted.run.id, fx.deps(), { follow: true });
      assert.equal(
        end.kind === "terminal" && `${end.run.state}: ${end.run.cause}`,
        "exhausted: fan_out_ceiling",
      );
      assert.equal((await fx.store.generations(admitted.run.id)).length, 0);
    } finally {
      await fx.remove();
    }
  });
});
