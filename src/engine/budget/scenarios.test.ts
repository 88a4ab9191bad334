import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { UsageIncrement } from "../../harness/harness.ts";
import type { BudgetChild } from "./allocate-child.ts";
import { meter, startMeter } from "./budget-meter.ts";
import { budgetSummary } from "./budget-summary.ts";
import { resolveCodonBudget } from "./resolve-codon-budget.ts";

/** Reference section 5, scenarios 12 and 13, through resolution, metering and the summary. */

const spend = (costUsd: number): UsageIncrement => ({
  inputTokens: 100,
  outputTokens: 50,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
  costUsd,
});
const child = (id: string, status: BudgetChild["status"], spentDollars = 0): BudgetChild => ({
  id,
  kind: "codon",
  status,
  spentDollars,
});

describe("scenario 12: shared budget starvation", () => {
  const budget = { maxDollars: 5 };
  const children = [child("a", "finished", 0.8), child("b", "finished", 3.5), child("c", "current")];
  const limits = resolveCodonBudget({ codon: undefined, hank: { budget, children, elapsedSeconds: 30 } });

  it("the third codon's limit is $0.70 and it completes on exceeding", () => {
    assert.deepEqual(limits, {
      cost: { limit: 0.7, scope: "hank", source: "shared pool" },
      onExceeded: "complete",
    });
  });

  it("spending past $0.70 trips cost once, and the summary row is 'exceeded'", () => {
    const first = meter(startMeter(limits), { usage: spend(0.5), elapsedSeconds: 3 });
    assert.equal(first.exceeded, undefined);
    const second = meter(first.state, { usage: spend(0.25), elapsedSeconds: 4 });
    assert.deepEqual(second.exceeded, {
      currency: "cost",
      limit: 0.7,
      used: 0.75,
      message: "Cost $0.7500 exceeded limit $0.7000 [shared pool]",
    });
    const exceeded = second.exceeded;
    assert.ok(exceeded);
    const summary = budgetSummary({
      ceiling: budget,
      allocation: "shared",
      codons: [
        { codonId: "a", status: "completed", actual: { dollars: 0.8, timeSeconds: 10, outputTokens: 50 } },
        { codonId: "b", status: "completed", actual: { dollars: 3.5, timeSeconds: 16, outputTokens: 50 } },
        {
          codonId: "c",
          status: "completed",
          limits,
          exceeded,
          actual: { dollars: second.state.costUsd, timeSeconds: 4, outputTokens: second.state.outputTokens },
        },
      ],
    });
    assert.deepEqual(
      summary.rows.map((r) => r.status),
      ["completed", "completed", "exceeded"],
    );
    assert.deepEqual(summary.rows[2]?.budgetExceeded, { currency: "cost", limit: 0.7, used: 0.75 });
    assert.equal(summary.totals.actualDollars, 5.05);
  });
});

describe("scenario 13: proportional-strict", () => {
  it("$10, shares a .5 b .3, a spends 1 -> b's limit is exactly $3", () => {
    const limits = resolveCodonBudget({
      codon: undefined,
      hank: {
        budget: { maxDollars: 10, allocation: "proportional-strict", shares: { a: 0.5, b: 0.3 } },
        children: [child("a", "finished", 1), child("b", "current")],
        elapsedSeconds: 0,
      },
    });
    assert.equal(limits.cost?.limit, 3);
  });
});
