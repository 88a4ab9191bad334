import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brief, codon, hankOf, loop, loopCodon, only, run, withCode } from "./test-kit.ts";

describe("budget policy warnings", () => {
  it("W5: exhaustWithPrompt under a time budget", () => {
    const report = run(
      hankOf([codon("a", { exhaustWithPrompt: "more" })], { overrides: { budget: { maxTimeSeconds: 900 } } }),
    );
    assert.deepEqual(brief(only(report, "budget-W5")), {
      severity: "warning",
      code: "budget-W5",
      path: ["hank", 0, "exhaustWithPrompt"],
      message:
        'Codon "a" uses exhaustWithPrompt under a time budget of 900s; extensions continue until the context is exhausted, so the time limit will likely end the codon first.',
    });
  });

  it("W6: a dollar budget on a model without pricing data", () => {
    const report = run(hankOf([codon("a", { model: "pi/acme/house-model", budget: { maxDollars: 1 } })]));
    assert.deepEqual(brief(only(report, "budget-W6")), {
      severity: "warning",
      code: "budget-W6",
      path: ["hank", 0, "model"],
      message:
        'Codon "a" has a dollar budget but model "pi/acme/house-model" has no pricing data. Cost tracking may be inaccurate.',
    });
    assert.equal(
      withCode(run(hankOf([codon("a", { model: "pi/acme/house-model" })])), "budget-W6").length,
      0,
    );
  });

  it("W8: onExceeded fail with onFailure retry", () => {
    const report = run(
      hankOf([codon("a", { onFailure: "retry", budget: { maxOutputTokens: 100 } })], {
        overrides: { budget: { onExceeded: "fail" } },
      }),
    );
    assert.deepEqual(brief(only(report, "budget-W8")), {
      severity: "warning",
      code: "budget-W8",
      path: ["hank", 0, "onFailure"],
      message:
        'Codon "a" fails when its budget is exceeded (onExceeded "fail") and has onFailure "retry"; a retry starts with the budget already spent, so it will likely exceed again.',
    });
    const overridden = run(
      hankOf([codon("a", { onFailure: "retry", budget: { maxOutputTokens: 100, onExceeded: "complete" } })], {
        overrides: { budget: { onExceeded: "fail" } },
      }),
    );
    assert.equal(withCode(overridden, "budget-W8").length, 0);
  });

  it("W9: a fail-policy codon after others in a shared pool", () => {
    const report = run(
      hankOf(
        [
          codon("a"),
          codon("b", { budget: { onExceeded: "fail" } }),
          codon("c", { budget: { onExceeded: "fail" } }),
        ],
        {
          overrides: { budget: { maxDollars: 5 } },
        },
      ),
    );
    assert.deepEqual(withCode(report, "budget-W9").map(brief), [
      {
        severity: "warning",
        code: "budget-W9",
        path: ["hank", 1],
        message:
          'Codon "b" fails when the budget is exceeded but is not first in the shared pool of the hank ($5.00). Earlier codons may exhaust the budget before it runs.',
      },
      {
        severity: "warning",
        code: "budget-W9",
        path: ["hank", 2],
        message:
          'Codon "c" fails when the budget is exceeded but is not first in the shared pool of the hank ($5.00). Earlier codons may exhaust the budget before it runs.',
      },
    ]);
    const first = run(
      hankOf([codon("a", { budget: { onExceeded: "fail" } }), codon("b")], {
        overrides: { budget: { maxDollars: 5 } },
      }),
    );
    assert.equal(withCode(first, "budget-W9").length, 0);
  });

  it("W10: a codon time cap above its loop's", () => {
    const body = [
      loopCodon("x", { budget: { maxTimeSeconds: 600 } }),
      loopCodon("y", { budget: { maxTimeSeconds: 60 } }),
    ];
    const report = run(hankOf([loop("l", body, { budget: { maxTimeSeconds: 300 } })]));
    assert.deepEqual(brief(only(report, "budget-W10")), {
      severity: "warning",
      code: "budget-W10",
      path: ["hank", 0, "codons", 0, "budget", "maxTimeSeconds"],
      message:
        'Codon "x" budget.maxTimeSeconds (600s) is above the maxTimeSeconds of loop "l" (300s); the loop\'s limit always ends it first.',
    });
  });
});
