import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HankFile } from "../schema/index.ts";
import { runtimeIdCollisions } from "./runtime-id-collisions.ts";

const codon = (id: string) => ({
  id,
  name: id,
  model: "scripted",
  continuationMode: "continue-previous",
  promptText: "go",
});
const loop = (id: string, terminateOn: object, codons: object[]) => ({
  type: "loop",
  id,
  name: id,
  terminateOn,
  codons,
});

describe("runtimeIdCollisions", () => {
  it("reports a codon named like a runtime id the loop reaches", () => {
    const hank = HankFile.parse({
      hank: [loop("L", { type: "iterationLimit", limit: 2 }, [codon("x")]), codon("x#1")],
    });
    assert.deepEqual(runtimeIdCollisions(hank), [
      {
        severity: "error",
        code: "duplicate-runtime-id",
        path: ["hank", 1, "id"],
        message: "Duplicate codon IDs after loop expansion: x#1",
        hint: 'Rename codon "x#1": loop codon "x" gets the runtime id "x#1" in iteration 1.',
      },
    ]);
  });

  it("reports any iteration of a contextExceeded loop, inside loops too", () => {
    const hank = HankFile.parse({
      hank: [
        loop("L", { type: "contextExceeded" }, [codon("x")]),
        loop("M", { type: "contextExceeded" }, [codon("x#40")]),
      ],
    });
    assert.deepEqual(
      runtimeIdCollisions(hank).map((issue) => issue.path),
      [["hank", 1, "codons", 0, "id"]],
    );
  });

  it("accepts ids the loop never reaches and ids that name no loop codon", () => {
    const hank = HankFile.parse({
      hank: [
        loop("L", { type: "iterationLimit", limit: 2 }, [codon("x")]),
        codon("x#2"),
        codon("y#0"),
        codon("x#01"),
      ],
    });
    assert.deepEqual(runtimeIdCollisions(hank), []);
  });
});
