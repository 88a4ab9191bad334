import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brief, codon, hankOf, loop, loopCodon, only, run, withCode } from "./test-kit.ts";

describe("schema stage: structure", () => {
  it("rejects a root that is not an object", () => {
    const report = run([1, 2]);
    assert.equal(report.ok, false);
    assert.deepEqual(brief(only(report, "invalid-root")), {
      severity: "error",
      code: "invalid-root",
      path: [],
      message: "The hank file must contain a JSON object, not an array.",
    });
  });

  it("requires the hank array and at least one item", () => {
    assert.deepEqual(brief(only(run({}), "missing-field")), {
      severity: "error",
      code: "missing-field",
      path: ["hank"],
      message: 'Missing required field "hank".',
    });
    assert.deepEqual(brief(only(run({ hank: [] }), "empty-hank")), {
      severity: "error",
      code: "empty-hank",
      path: ["hank"],
      message: "At least one codon required",
    });
    assert.equal(only(run({ hank: {} }), "invalid-type").message, '"hank" must be an array, not an object.');
  });

  it("rejects items that are not objects, by index", () => {
    const report = run(hankOf([codon("a"), "text", null]));
    assert.deepEqual(
      withCode(report, "invalid-item").map(brief),
      [1, 2].map((n) => ({
        severity: "error",
        code: "invalid-item",
        path: ["hank", n],
        message: `Item at index ${n} must be an object (codon or loop)`,
      })),
    );
  });

  it("rejects nested loops", () => {
    const report = run(hankOf([loop("outer", [loop("inner", [loopCodon("a")])])]));
    assert.deepEqual(brief(only(report, "nested-loop")), {
      severity: "error",
      code: "nested-loop",
      path: ["hank", 0, "codons", 0],
      message: 'Loops cannot be nested: item at index 0 of loop "outer" is a loop.',
    });
  });

  it("requires an iteration limit of at least 1 and a non-empty loop body", () => {
    const limit = run(
      hankOf([loop("l", [loopCodon("a")], { terminateOn: { type: "iterationLimit", limit: 0 } })]),
    );
    assert.deepEqual(brief(only(limit, "invalid-iteration-limit")), {
      severity: "error",
      code: "invalid-iteration-limit",
      path: ["hank", 0, "terminateOn", "limit"],
      message: "Iteration limit must be at least 1",
    });
    assert.deepEqual(brief(only(run(hankOf([loop("l", [])])), "empty-loop")), {
      severity: "error",
      code: "empty-loop",
      path: ["hank", 0, "codons"],
      message: "Loop must contain at least one codon",
    });
  });

  it("names an unknown item type and still checks the item", () => {
    const report = run(hankOf([{ ...codon("a"), type: "codoon", model: 5 }]));
    assert.deepEqual(brief(only(report, "unknown-item-type")), {
      severity: "error",
      code: "unknown-item-type",
      path: ["hank", 0, "type"],
      message: 'Item at index 0 has unknown type "codoon"; expected "codon" or "loop".',
    });
    assert.equal(only(report, "invalid-type").message, '"model" must be a string, not 5.');
  });

  it("checks every item even when an earlier one is broken", () => {
    const report = run(
      hankOf([
        codon("a", { continuationMode: "sometimes" }),
        loop("l", [loopCodon("b", { onFailure: "explode" })]),
        codon("c", { retryConfig: { maxAttempts: 2 } }),
      ]),
    );
    assert.deepEqual(
      report.issues.filter((i) => i.severity === "error").map((i) => [i.code, i.path.join(".")]),
      [
        ["invalid-continuation-mode", "hank.0.continuationMode"],
        ["invalid-value", "hank.1.codons.0.onFailure"],
        ["retry-config-without-retry", "hank.2.retryConfig"],
      ],
    );
    assert.equal(report.hank, undefined);
  });

  it("returns the parsed hank with defaults when the schema accepts it", () => {
    const report = run(hankOf([codon("a", { onFailure: "retry", retryConfig: {} })]));
    assert.equal(report.ok, true);
    const first = report.hank?.hank[0];
    assert.ok(first !== undefined && first.type !== "loop");
    assert.deepEqual(first.retryConfig, { maxAttempts: 3, delayMs: 1000, maxDelayMs: 60000 });
  });
});
