import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brief, codon, hankOf, loop, loopCodon, only, run, withCode } from "./test-kit.ts";

describe("duplicate ids", () => {
  it("finds a top-level codon id reused by a loop child", () => {
    const report = run(hankOf([codon("a"), loop("l", [loopCodon("a")])]));
    assert.deepEqual(brief(only(report, "duplicate-codon-id")), {
      severity: "error",
      code: "duplicate-codon-id",
      path: ["hank", 1, "codons", 0, "id"],
      message: 'Duplicate codon ID "a" (first used at hank[0])',
    });
  });

  it("finds duplicates within one loop and duplicate loop ids", () => {
    const report = run(hankOf([loop("l", [loopCodon("x"), loopCodon("x")]), loop("l", [loopCodon("y")])]));
    assert.deepEqual(brief(only(report, "duplicate-codon-id-in-loop")), {
      severity: "error",
      code: "duplicate-codon-id-in-loop",
      path: ["hank", 0, "codons", 1, "id"],
      message: 'Duplicate codon ID "x" within loop "l" (first used at hank[0].codons[0])',
    });
    assert.deepEqual(brief(only(report, "duplicate-loop-id")), {
      severity: "error",
      code: "duplicate-loop-id",
      path: ["hank", 1, "id"],
      message: 'Duplicate loop ID "l" (first used at hank[0])',
    });
  });

  it("counts ids of codons that failed their schema", () => {
    const report = run(hankOf([codon("a", { model: 1 }), codon("a")]));
    assert.equal(withCode(report, "duplicate-codon-id").length, 1);
  });

  it("only warns about duplicate names", () => {
    const report = run(hankOf([codon("a", { name: "Same" }), codon("b", { name: "Same" })]));
    assert.equal(report.ok, true);
    assert.deepEqual(brief(only(report, "duplicate-codon-name")), {
      severity: "warning",
      code: "duplicate-codon-name",
      path: ["hank", 1, "name"],
      message: 'Duplicate codon name "Same" (also used at hank[0])',
    });
  });
});
