import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { HankFile } from "../hank/schema/index.ts";
import { buildPlan } from "./build-plan.ts";

const codon = (id: string) => ({
  id,
  name: id,
  model: "scripted",
  continuationMode: "fresh",
  promptText: "go",
});

describe("buildPlan", () => {
  it("plans iteration 0 of the minimal loop fixture", () => {
    const url = new URL("../../test/fixtures/minimal-loop/hank.json", import.meta.url);
    const plan = buildPlan(HankFile.parse(JSON.parse(readFileSync(url, "utf8"))));
    assert.deepEqual(plan, {
      version: 1,
      entries: [
        {
          runtimeId: "append-a#0",
          configId: "append-a",
          topIndex: 0,
          loop: { loopId: "append-loop", iteration: 0, position: 0, isLast: false },
        },
        {
          runtimeId: "append-b#0",
          configId: "append-b",
          topIndex: 0,
          loop: { loopId: "append-loop", iteration: 0, position: 1, isLast: true },
        },
      ],
      loops: { "append-loop": { iteration: 0, terminated: false } },
    });
  });

  it("keeps top-level codons as they are and places loops in order", () => {
    const hank = HankFile.parse({
      hank: [
        codon("A"),
        {
          type: "loop",
          id: "L",
          name: "L",
          terminateOn: { type: "iterationLimit", limit: 3 },
          codons: [codon("x")],
        },
        codon("B"),
      ],
    });
    const plan = buildPlan(hank);
    assert.deepEqual(
      plan.entries.map((entry) => [entry.runtimeId, entry.topIndex]),
      [
        ["A", 0],
        ["x#0", 1],
        ["B", 2],
      ],
    );
    assert.equal(plan.entries[0]?.loop, undefined);
    assert.deepEqual(plan.entries[1]?.loop, { loopId: "L", iteration: 0, position: 0, isLast: true });
    assert.deepEqual(plan.loops, { L: { iteration: 0, terminated: false } });
  });

  it("builds plain JSON data", () => {
    const plan = buildPlan(HankFile.parse({ hank: [codon("A")] }));
    assert.deepEqual(JSON.parse(JSON.stringify(plan)), plan);
  });
});
