import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HankFile } from "../hank/schema/index.ts";
import { buildPlan } from "./build-plan.ts";
import type { PlannedCodon } from "./execution-plan.ts";
import { loopOf, resolveCodon, terminateOnOf, unresolvedEntries } from "./resolve-codon.ts";

const codon = (id: string) => ({
  id,
  name: id,
  model: "scripted",
  continuationMode: "fresh",
  promptText: id,
});
const HANK = HankFile.parse({
  hank: [
    codon("A"),
    {
      type: "loop",
      id: "L",
      name: "L",
      terminateOn: { type: "iterationLimit", limit: 2 },
      codons: [codon("x"), codon("y")],
    },
  ],
});
function planned(runtimeId: string): PlannedCodon {
  const entry = buildPlan(HANK).entries.find((candidate) => candidate.runtimeId === runtimeId);
  if (entry === undefined) throw new Error(`no ${runtimeId}`);
  return entry;
}
const A = planned("A");
const X = planned("x#0");
const Y = planned("y#0");

describe("resolveCodon", () => {
  it("reads the codon config back from the hank by position", () => {
    assert.equal(resolveCodon(HANK, A)?.promptText, "A");
    assert.equal(resolveCodon(HANK, Y)?.promptText, "y");
    assert.equal(loopOf(HANK, X)?.id, "L");
    assert.equal(loopOf(HANK, A), undefined);
    assert.deepEqual(terminateOnOf(HANK, X), { type: "iterationLimit", limit: 2 });
    assert.equal(terminateOnOf(HANK, A), undefined);
  });

  it("returns undefined when the hank no longer matches the plan", () => {
    const edited = HankFile.parse({ hank: [codon("A2"), ...HANK.hank.slice(1)] });
    assert.equal(resolveCodon(edited, A), undefined);
    const moved: PlannedCodon = { ...Y, topIndex: 0 };
    assert.equal(resolveCodon(HANK, moved), undefined);
    assert.deepEqual(
      unresolvedEntries(edited, [A, X, Y]).map((entry) => entry.runtimeId),
      ["A"],
    );
  });
});
