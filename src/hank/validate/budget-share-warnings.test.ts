import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brief, codon, hankOf, loop, loopCodon, only, run } from "./test-kit.ts";

const proportional = (shares: Record<string, number>, extra = {}) => ({
  maxDollars: 10,
  allocation: "proportional",
  shares,
  ...extra,
});

describe("budget share warnings", () => {
  it("W1: a codon cap above its share of the hank budget", () => {
    const report = run(
      hankOf([codon("a", { budget: { maxDollars: 8 } }), codon("b")], {
        overrides: { budget: proportional({ a: 0.5 }) },
      }),
    );
    assert.deepEqual(brief(only(report, "budget-W1")), {
      severity: "warning",
      code: "budget-W1",
      path: ["hank", 0, "budget", "maxDollars"],
      message:
        'Codon "a" budget.maxDollars ($8.00) is above its proportional allocation ($5.00, 50% of $10.00). The cap will never be reached.',
    });
  });

  it("W2: hank shares under 100% with no child to absorb the rest", () => {
    const report = run(
      hankOf([codon("a"), codon("b", { budget: { maxDollars: 1 } })], {
        overrides: { budget: proportional({ a: 0.6 }) },
      }),
    );
    assert.deepEqual(brief(only(report, "budget-W2")), {
      severity: "warning",
      code: "budget-W2",
      path: ["overrides", "budget", "shares"],
      message:
        "budget.shares of the hank sum to 60% and every child has a share or its own cap; the remaining 40% ($4.00) is never allocated.",
    });
  });

  it("W3 and W4: the same two problems inside a loop budget", () => {
    const body = [
      loopCodon("x", { budget: { maxDollars: 9 } }),
      loopCodon("y", { budget: { maxDollars: 1 } }),
    ];
    const report = run(hankOf([loop("l", body, { budget: proportional({ x: 0.25 }) })]));
    assert.deepEqual(brief(only(report, "budget-W3")), {
      severity: "warning",
      code: "budget-W3",
      path: ["hank", 0, "codons", 0, "budget", "maxDollars"],
      message:
        'Codon "x" budget.maxDollars ($9.00) is above its proportional allocation ($2.50, 25% of $10.00). The cap will never be reached.',
    });
    assert.deepEqual(brief(only(report, "budget-W4")), {
      severity: "warning",
      code: "budget-W4",
      path: ["hank", 0, "budget", "shares"],
      message:
        'budget.shares of loop "l" sum to 25% and every child has a share or its own cap; the remaining 75% ($7.50) is never allocated.',
    });
  });

  it("W7: a child without a share when the shares already take 100%", () => {
    const report = run(
      hankOf([codon("a"), codon("b"), codon("c")], {
        overrides: { budget: proportional({ a: 0.5, b: 0.5 }) },
      }),
    );
    assert.deepEqual(brief(only(report, "budget-W7")), {
      severity: "warning",
      code: "budget-W7",
      path: ["hank", 2],
      message:
        'Codon "c" has no share and budget.shares already sum to 100%. It will start with $0 budget and immediately exceed.',
    });
  });

  it("stays quiet for a sound proportional budget", () => {
    const report = run(
      hankOf([codon("a", { budget: { maxDollars: 2 } }), codon("b")], {
        overrides: { budget: proportional({ a: 0.3 }) },
      }),
    );
    assert.deepEqual(report.issues, []);
  });
});
