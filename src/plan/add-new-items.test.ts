import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HankFile } from "../hank/schema/index.ts";
import { hankOf as hankInput, scriptedCodon, scriptedLoop } from "../testing/hank-builders.ts";
import { addNewTopLevelItems, loopsWithChangedBody } from "./add-new-items.ts";
import { buildPlan } from "./build-plan.ts";
import { nextIteration } from "./next-iteration.ts";

const codon = (id: string) => scriptedCodon(id, "go");
const loop = (id: string, ...codons: string[]) =>
  scriptedLoop(id, { type: "iterationLimit", limit: 3 }, codons.map(codon));
const hankOf = (...items: Parameters<typeof hankInput>[0]) => HankFile.parse(hankInput(items));
const placed = (plan: ReturnType<typeof buildPlan>) =>
  plan.entries.map((e) => `${e.runtimeId}@${e.topIndex}`);

describe("addNewTopLevelItems", () => {
  it("returns the same plan when the hank holds nothing new", () => {
    const hank = hankOf(codon("a"), loop("L", "x"));
    const plan = buildPlan(hank);
    assert.equal(addNewTopLevelItems(hank, plan, new Set()), plan);
  });

  it("plans codons and loops added anywhere, in the hank's order, and moves the others' indexes", () => {
    const before = hankOf(codon("a"), loop("L", "x", "y"), codon("b"));
    const plan = nextIteration(buildPlan(before), "L");
    const after = hankOf(
      codon("first"),
      codon("a"),
      loop("L", "x", "y"),
      codon("mid"),
      codon("b"),
      loop("M", "z"),
    );
    const carried = addNewTopLevelItems(after, plan, new Set(["a", "x#0", "y#0"]));
    assert.deepEqual(placed(carried), [
      "first@0",
      "a@1",
      "x#0@2",
      "y#0@2",
      "x#1@2",
      "y#1@2",
      "mid@3",
      "b@4",
      "z#0@5",
    ]);
    assert.deepEqual(carried.loops.M, { iteration: 0, terminated: false });
    assert.deepEqual(carried.loops.L, plan.loops.L, "a loop already planned keeps its status");
  });

  it("leaves a removed codon's entries for the resume to report", () => {
    const plan = buildPlan(hankOf(codon("a"), codon("gone"), codon("b")));
    const carried = addNewTopLevelItems(hankOf(codon("a"), codon("b")), plan, new Set(["a"]));
    assert.deepEqual(placed(carried), ["a@0", "gone@1", "b@1"]);
  });

  it("plans a loop that has not started again from its edited body; a started one keeps its own", () => {
    const plan = buildPlan(hankOf(codon("a"), loop("L", "x"), loop("M", "z")));
    const edited = hankOf(codon("a"), loop("L", "x", "w"), loop("M", "z", "v"));
    const carried = addNewTopLevelItems(edited, plan, new Set(["a", "z#0"]));
    assert.deepEqual(placed(carried), ["a@0", "x#0@1", "w#0@1", "z#0@2"]);
    assert.deepEqual(loopsWithChangedBody(edited, carried), ["M"]);
    assert.deepEqual(loopsWithChangedBody(edited, addNewTopLevelItems(edited, plan, new Set(["a"]))), []);
  });
});
