import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brief, codon, hankOf, loop, loopCodon, only, run } from "./test-kit.ts";

const withBudget = (budget: unknown, items = [codon("a"), codon("b")]) =>
  hankOf(items, { overrides: { budget } });

describe("budget errors", () => {
  it("requires a proportional allocation for shares", () => {
    const issue = only(
      run(withBudget({ maxDollars: 5, shares: { a: 0.5 } })),
      "budget-shares-without-proportional",
    );
    assert.deepEqual(brief(issue), {
      severity: "error",
      code: "budget-shares-without-proportional",
      path: ["overrides", "budget", "shares"],
      message: "budget.shares requires allocation mode 'proportional' or 'proportional-strict'.",
    });
    assert.equal(issue.hint, "Set budget.allocation to 'proportional' or 'proportional-strict'.");
  });

  it("requires maxDollars for proportional allocation", () => {
    const issue = only(
      run(withBudget({ allocation: "proportional-strict" })),
      "budget-proportional-without-max",
    );
    assert.deepEqual(brief(issue), {
      severity: "error",
      code: "budget-proportional-without-max",
      path: ["overrides", "budget", "allocation"],
      message: "Proportional allocation requires budget.maxDollars.",
    });
    assert.equal(issue.hint, "Set budget.maxDollars to a positive number.");
  });

  it("requires shares to sum to at most 1.0", () => {
    const issue = only(
      run(withBudget({ maxDollars: 10, allocation: "proportional", shares: { a: 0.7, b: 0.5 } })),
      "budget-shares-sum",
    );
    assert.deepEqual(brief(issue), {
      severity: "error",
      code: "budget-shares-sum",
      path: ["overrides", "budget", "shares"],
      message: "budget.shares values must sum to at most 1.0.",
    });
    assert.equal(issue.hint, "Reduce share fractions so their total does not exceed 100% (now 120%).");
    const exact = run(
      withBudget({ maxDollars: 10, allocation: "proportional", shares: { a: 0.7, b: 0.1, c: 0.2 } }, [
        codon("a"),
        codon("b"),
        codon("c"),
      ]),
    );
    assert.equal(exact.ok, true);
  });

  it("names unknown share ids with the valid ones: top-level items for the hank, codons for a loop", () => {
    const items = [
      codon("a"),
      loop("l", [loopCodon("x"), loopCodon("y")], {
        budget: { maxDollars: 2, allocation: "proportional", shares: { z: 0.5 } },
      }),
    ];
    const report = run(
      withBudget({ maxDollars: 10, allocation: "proportional", shares: { b: 0.5, x: 0.2 } }, items),
    );
    assert.deepEqual(report.issues.filter((i) => i.code === "budget-shares-unknown-child").map(brief), [
      {
        severity: "error",
        code: "budget-shares-unknown-child",
        path: ["overrides", "budget", "shares", "b"],
        message: "budget.shares references unknown child IDs: b. Valid IDs: a, l",
      },
      {
        severity: "error",
        code: "budget-shares-unknown-child",
        path: ["overrides", "budget", "shares", "x"],
        message: "budget.shares references unknown child IDs: x. Valid IDs: a, l",
      },
      {
        severity: "error",
        code: "budget-shares-unknown-child",
        path: ["hank", 1, "budget", "shares", "z"],
        message: "budget.shares references unknown child IDs: z. Valid IDs: x, y",
      },
    ]);
  });
});
