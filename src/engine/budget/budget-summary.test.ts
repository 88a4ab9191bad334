import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { budgetSummary } from "./budget-summary.ts";

describe("budgetSummary", () => {
  it("builds one row per execution with budget against actual, and totals", () => {
    const summary = budgetSummary({
      ceiling: { maxDollars: 10, maxTimeSeconds: 600 },
      allocation: "shared",
      codons: [
        {
          codonId: "a",
          status: "completed",
          limits: {
            cost: { limit: 10, scope: "hank", source: "shared pool" },
            duration: { limit: 600, scope: "hank", source: "hank remaining time" },
            outputTokens: { limit: 5000, scope: "codon", source: "codon cap" },
            onExceeded: "complete",
          },
          actual: { dollars: 0.1, timeSeconds: 12.5, outputTokens: 900 },
        },
        {
          codonId: "x#0",
          loopContext: { loopId: "L", iteration: 0, codonIndexInLoop: 0 },
          status: "failed",
          limits: { cost: { limit: 9.9, scope: "hank", source: "shared pool" }, onExceeded: "fail" },
          exceeded: {
            currency: "cost",
            limit: 9.9,
            used: 9.95,
            message: "Cost $9.9500 exceeded limit $9.9000 [shared pool]",
          },
          actual: { dollars: 9.95, timeSeconds: 40, outputTokens: 100 },
        },
        { codonId: "b", status: "skipped", actual: { dollars: 0, timeSeconds: 0, outputTokens: 0 } },
        {
          codonId: "c",
          status: "running",
          limits: { onExceeded: "complete" },
          actual: { dollars: 0.2, timeSeconds: 1, outputTokens: 3 },
        },
      ],
    });
    assert.deepEqual(summary, {
      ceiling: { maxDollars: 10, maxTimeSeconds: 600 },
      allocation: "shared",
      rows: [
        {
          codonId: "a",
          status: "completed",
          budget: { maxDollars: 10, maxTimeSeconds: 600, maxOutputTokens: 5000 },
          actual: { dollars: 0.1, timeSeconds: 12.5, outputTokens: 900 },
        },
        {
          codonId: "x#0",
          loopContext: { loopId: "L", iteration: 0, codonIndexInLoop: 0 },
          status: "failed",
          budget: { maxDollars: 9.9 },
          actual: { dollars: 9.95, timeSeconds: 40, outputTokens: 100 },
          budgetExceeded: { currency: "cost", limit: 9.9, used: 9.95 },
        },
        {
          codonId: "b",
          status: "skipped",
          budget: {},
          actual: { dollars: 0, timeSeconds: 0, outputTokens: 0 },
        },
        {
          codonId: "c",
          status: "running",
          budget: {},
          actual: { dollars: 0.2, timeSeconds: 1, outputTokens: 3 },
        },
      ],
      totals: {
        budgetDollars: 10,
        budgetTimeSeconds: 600,
        actualDollars: 10.25,
        actualTimeSeconds: 53.5,
        actualOutputTokens: 1003,
      },
    });
  });

  it("a codon that completed because a limit tripped is 'exceeded'", () => {
    const summary = budgetSummary({
      ceiling: {},
      allocation: "proportional",
      codons: [
        {
          codonId: "a",
          status: "completed",
          limits: {
            outputTokens: { limit: 10, scope: "codon", source: "codon cap" },
            onExceeded: "complete",
          },
          exceeded: {
            currency: "outputTokens",
            limit: 10,
            used: 12,
            message: "Output tokens 12 exceeded limit 10",
          },
          actual: { dollars: 0, timeSeconds: 1, outputTokens: 12 },
        },
      ],
    });
    assert.equal(summary.rows[0]?.status, "exceeded");
    assert.deepEqual(summary.totals, { actualDollars: 0, actualTimeSeconds: 1, actualOutputTokens: 12 });
  });
});
