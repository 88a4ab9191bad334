import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { budgetTable } from "./budget-table.ts";
import { codon, hankOf, RICH_FIXTURE_DIR, run } from "./test-kit.ts";

describe("budgetTable", () => {
  it("gives the hank and loop scopes of the rich fixture with static allocations", () => {
    const raw = JSON.parse(fs.readFileSync(path.join(RICH_FIXTURE_DIR, "hank.json"), "utf8"));
    const report = run(raw, { env: { REVIEW_TOKEN: "x" } });
    assert.ok(report.hank);
    assert.deepEqual(budgetTable(report.hank, report.models), [
      {
        scope: "hank",
        id: "hank",
        allocation: "proportional",
        maxDollars: 10,
        maxTimeSeconds: 3600,
        onExceeded: "complete",
        shares: { plan: 0.3, refine: 0.5 },
        children: [
          {
            id: "plan",
            kind: "codon",
            share: 0.3,
            allocatedDollars: 2,
            capDollars: 2,
            capSeconds: 600,
            onExceeded: "complete",
            priced: true,
          },
          {
            id: "refine",
            kind: "loop",
            share: 0.5,
            allocatedDollars: 5,
            capDollars: 5,
            capSeconds: 1800,
            onExceeded: "complete",
            priced: undefined,
          },
          {
            id: "summarize",
            kind: "codon",
            share: undefined,
            allocatedDollars: 2,
            capDollars: undefined,
            capSeconds: undefined,
            onExceeded: "complete",
            priced: true,
          },
        ],
      },
      {
        scope: "loop",
        id: "refine",
        allocation: "shared",
        maxDollars: 5,
        maxTimeSeconds: 1800,
        onExceeded: "complete",
        shares: {},
        children: [
          {
            id: "draft",
            kind: "codon",
            share: undefined,
            allocatedDollars: 5,
            capDollars: undefined,
            capSeconds: undefined,
            onExceeded: "complete",
            priced: true,
          },
          {
            id: "review",
            kind: "codon",
            share: undefined,
            allocatedDollars: 5,
            capDollars: undefined,
            capSeconds: 300,
            onExceeded: "complete",
            priced: true,
          },
        ],
      },
    ]);
  });

  it("lists codon caps under an unlimited hank scope when only codons have budgets", () => {
    const report = run(hankOf([codon("a", { budget: { maxDollars: 1, onExceeded: "fail" } }), codon("b")]));
    assert.ok(report.hank);
    const [row] = budgetTable(report.hank, report.models);
    assert.equal(row?.maxDollars, undefined);
    assert.deepEqual(
      row?.children.map((c) => [c.id, c.allocatedDollars, c.capDollars, c.onExceeded]),
      [
        ["a", undefined, 1, "fail"],
        ["b", undefined, undefined, "complete"],
      ],
    );
  });

  it("has no rows for a hank without budgets", () => {
    const report = run(hankOf([codon("a")]));
    assert.ok(report.hank);
    assert.deepEqual(budgetTable(report.hank, report.models), []);
  });
});
