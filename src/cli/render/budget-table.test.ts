import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BudgetTableRow } from "../../hank/validate/index.ts";
import { renderBudgetTable } from "./budget-table.ts";

const plain = { color: false, width: 100 };

describe("renderBudgetTable", () => {
  it("shows each scope's limits and what every child starts with", () => {
    const rows: BudgetTableRow[] = [
      {
        scope: "hank",
        id: "hank",
        allocation: "proportional",
        maxDollars: 10,
        maxTimeSeconds: undefined,
        onExceeded: "complete",
        shares: { a: 0.6 },
        children: [
          {
            id: "a",
            kind: "codon",
            share: 0.6,
            allocatedDollars: 6,
            capDollars: undefined,
            capSeconds: 120,
            onExceeded: "fail",
            priced: true,
          },
          {
            id: "b",
            kind: "codon",
            share: undefined,
            allocatedDollars: 4,
            capDollars: 2,
            capSeconds: undefined,
            onExceeded: "complete",
            priced: false,
          },
        ],
      },
    ];
    assert.equal(
      renderBudgetTable(rows, plain),
      [
        "Budgets:",
        "  hank: $10.00 • no time limit • proportional • on exceeded: complete",
        "    child  kind   share  starts with  cap    time cap  on exceeded",
        "    a      codon  60%    $6.00        -      120 s     fail",
        "    b !    codon  -      $4.00        $2.00  -         complete",
        "  ! no pricing data for b: cost tracking may be inaccurate.",
      ].join("\n"),
    );
  });

  it("is empty when the hank has no budget", () => {
    assert.equal(renderBudgetTable([], plain), "");
  });
});
