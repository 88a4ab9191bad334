import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { hankOf, runHankForTest, scriptedCodon, scriptedLoop } from "../../src/testing/index.ts";
import { lifecycle, STOPPED, spend } from "./support.ts";

describe("shared budget starvation (scenario 12)", () => {
  it("gives the third codon $0.70, stops it on exceeding, completes the run and summarizes exactly", async (t) => {
    const run = await runHankForTest({
      hank: hankOf(
        [
          scriptedCodon("a", spend(0.8)),
          scriptedCodon("b", spend(3.5)),
          // The sleep keeps the agent busy until the engine stops it; nothing after it runs.
          scriptedCodon("c", `${spend(0.5)}\n${spend(0.3)}\n@sleep 1000\n@write late.txt too late`),
        ],
        { overrides: { budget: { maxDollars: 5 } } },
      ),
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), [
      "started a",
      "completed a ok",
      "started b",
      "completed b ok",
      "started c",
      "completed c ok",
    ]);
    const c = run.data("codon.completed")[2];
    assert.deepEqual(c, {
      codonId: "c",
      success: true,
      cost: 0.8,
      duration: 0,
      exitStatus: { type: "none" },
      budgetExceeded: { currency: "cost", limit: 0.7, used: 0.8 },
      endReasons: STOPPED,
      attempt: 1,
    });
    assert.equal(existsSync(join(run.agentRoot, "late.txt")), false);
    assert.deepEqual(run.data("budget.summary"), [
      {
        ceiling: { maxDollars: 5 },
        allocation: "shared",
        rows: [
          {
            codonId: "a",
            status: "completed",
            budget: { maxDollars: 5 },
            actual: { dollars: 0.8, timeSeconds: 0, outputTokens: 50 },
          },
          {
            codonId: "b",
            status: "completed",
            budget: { maxDollars: 4.2 },
            actual: { dollars: 3.5, timeSeconds: 0, outputTokens: 50 },
          },
          {
            codonId: "c",
            status: "exceeded",
            budget: { maxDollars: 0.7 },
            actual: { dollars: 0.8, timeSeconds: 0, outputTokens: 100 },
            budgetExceeded: { currency: "cost", limit: 0.7, used: 0.8 },
          },
        ],
        totals: { budgetDollars: 5, actualDollars: 5.1, actualTimeSeconds: 0, actualOutputTokens: 200 },
      },
    ]);
    assert.deepEqual(
      { status: run.result.status, exitCode: run.result.exitCode },
      { status: "completed", exitCode: 0 },
    );
    assert.deepEqual(run.state.codons[2]?.budgetExceeded, {
      currency: "cost",
      limit: 0.7,
      used: 0.8,
    });
  });
});

describe("proportional-strict allocation (scenario 13)", () => {
  it("gives b exactly $3 after a spent $1 of its $5 share", async (t) => {
    const run = await runHankForTest({
      hank: hankOf(
        [scriptedCodon("a", spend(1)), scriptedCodon("b", spend(0.5)), scriptedCodon("c", spend(0.25))],
        {
          overrides: {
            budget: { maxDollars: 10, allocation: "proportional-strict", shares: { a: 0.5, b: 0.3 } },
          },
        },
      ),
    });
    t.after(run.remove);
    const summary = run.data("budget.summary")[0];
    assert.deepEqual(
      summary?.rows.map((row) => [row.codonId, row.status, row.budget.maxDollars, row.actual.dollars]),
      [
        ["a", "completed", 5, 1],
        ["b", "completed", 3, 0.5],
        // Unshared: the 20% nobody holds ($2); a and b consumed max(share, spend) = $5 + $3.
        ["c", "completed", 2, 0.25],
      ],
    );
    assert.equal(run.result.exitCode, 0);
  });
});

describe("a dollar budget stops a session", () => {
  const overspends = `${spend(0.3, 10)}\n${spend(0.3, 10)}\n@sleep 1000\n@write late.txt too late`;

  it("onExceeded complete: the codon completes with budgetExceeded and the run goes on", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("a", overspends, { budget: { maxDollars: 0.5 } }),
        scriptedCodon("b", "@say b"),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), ["started a", "completed a ok", "started b", "completed b ok"]);
    const [a] = run.data("codon.completed");
    assert.deepEqual(
      { budgetExceeded: a?.budgetExceeded, endReasons: a?.endReasons, cost: a?.cost },
      { budgetExceeded: { currency: "cost", limit: 0.5, used: 0.6 }, endReasons: STOPPED, cost: 0.6 },
    );
    assert.equal(existsSync(join(run.agentRoot, "late.txt")), false);
    assert.equal(run.result.exitCode, 0);
  });

  it("onExceeded fail: the codon fails permanently and onFailure (abort) fails the run", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("a", overspends, { budget: { maxDollars: 0.5, onExceeded: "fail" } }),
        scriptedCodon("b", "@say b"),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), ["started a", "completed a failed"]);
    const [a] = run.data("codon.completed");
    assert.deepEqual(a?.failureReason, {
      type: "unknown",
      retriable: false,
      message: "Budget exceeded: Cost $0.6000 exceeded limit $0.5000 [codon cap]",
    });
    assert.deepEqual(a?.budgetExceeded, { currency: "cost", limit: 0.5, used: 0.6 });
    assert.deepEqual(a?.exitStatus, { type: "none" });
    assert.equal(run.data("budget.summary")[0]?.rows[0]?.status, "failed");
    assert.deepEqual(
      { status: run.result.status, exitCode: run.result.exitCode },
      { status: "failed", exitCode: 1 },
    );
  });

  it("onExceeded fail with onFailure ignore: the run goes on past the failed codon", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("a", overspends, {
          budget: { maxDollars: 0.5, onExceeded: "fail" },
          onFailure: "ignore",
        }),
        scriptedCodon("b", "@say b"),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), [
      "started a",
      "completed a ignored",
      "started b",
      "completed b ok",
    ]);
    assert.equal(run.result.exitCode, 0);
  });
});

describe("other limits", () => {
  it("maxOutputTokens stops the codon at the output-token limit", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("a", "@usage input=10 output=150\n@sleep 10", { budget: { maxOutputTokens: 100 } }),
      ]),
    });
    t.after(run.remove);
    const [a] = run.data("codon.completed");
    assert.deepEqual(
      { success: a?.success, budgetExceeded: a?.budgetExceeded, endReasons: a?.endReasons },
      {
        success: true,
        budgetExceeded: { currency: "outputTokens", limit: 100, used: 150 },
        endReasons: STOPPED,
      },
    );
  });

  it("a spent ceiling starves the codons after it: they complete without starting, the run completes, and a higher ceiling runs exactly them", async (t) => {
    const hank = hankOf(
      [scriptedCodon("a", spend(0.6)), scriptedCodon("b", spend(0.6)), scriptedCodon("c", "@write c.txt c")],
      { overrides: { budget: { maxDollars: 5 } } },
    );
    const first = await runHankForTest({ hank, options: { maxCostUsd: 1 } });
    t.after(first.remove);
    assert.deepEqual(lifecycle(first.events), [
      "started a",
      "completed a ok",
      "started b",
      "completed b ok",
      "completed c ok",
    ]);
    assert.deepEqual([first.result.status, first.result.exitCode], ["completed", 0]);
    const c = first.data("codon.completed")[2];
    assert.deepEqual(
      { notStarted: c?.notStarted, budgetExceeded: c?.budgetExceeded, cost: c?.cost },
      {
        notStarted: { ceiling: "run ceiling $1.0000" },
        budgetExceeded: { currency: "cost", limit: 1, used: 1.2 },
        cost: 0,
      },
    );
    assert.equal(existsSync(join(first.agentRoot, "c.txt")), false);
    const again = await runHankForTest({ hank, continueFrom: first, options: { maxCostUsd: 1 } });
    assert.deepEqual(lifecycle(again.events), ["completed c ok"], "still spent: c starves again");
    const raised = await runHankForTest({ hank, continueFrom: again, options: { maxCostUsd: 2 } });
    assert.deepEqual(lifecycle(raised.events), ["started c", "completed c ok"]);
    assert.equal(raised.result.status, "completed");
    assert.equal(existsSync(join(raised.agentRoot, "c.txt")), true);
    assert.equal(raised.state.codons.find((codon) => codon.id === "c")?.notStarted, null);
  });

  it("under onExceeded: fail a spent ceiling fails the run, naming the run ceiling", async (t) => {
    // a may overspend (its own onExceeded: complete); the run ceiling it spends fails the run before b.
    const hank = hankOf(
      [
        scriptedCodon("a", `${spend(0.6)}\n${spend(0.6)}`, { budget: { onExceeded: "complete" } }),
        scriptedCodon("b", spend(0.1)),
      ],
      { overrides: { budget: { maxDollars: 1, onExceeded: "fail" } } },
    );
    const run = await runHankForTest({ hank });
    t.after(run.remove);
    assert.deepEqual(
      { status: run.result.status, exitCode: run.result.exitCode, message: run.result.message },
      {
        status: "failed",
        exitCode: 1,
        message:
          "Budget reached: the run ceiling of $1.0000 is spent ($1.2000); codon b not started. Raise --max-cost / --max-time (or the hank's overrides.budget) and run again to continue.",
      },
    );
  });

  it("a ceiling spent inside a loop ends it saying what it left undone; a higher ceiling runs exactly that", async (t) => {
    const hank = hankOf([
      scriptedLoop("work", { type: "iterationLimit", limit: 6 }, [scriptedCodon("step", spend(0.01))]),
      scriptedCodon("d", "@write d.txt d"),
    ]);
    const first = await runHankForTest({ hank, options: { maxCostUsd: 0.015 } });
    t.after(first.remove);
    assert.deepEqual(lifecycle(first.events), [
      "started step#0",
      "completed step#0 ok",
      "iteration work#0",
      "started step#1",
      "completed step#1 ok",
      "iteration work#1",
      "completed step#2 ok",
      "final work#2 -",
      "completed d ok",
    ]);
    assert.deepEqual([first.result.status, first.result.exitCode], ["completed", 0]);
    assert.deepEqual(first.data("codon.completed")[2]?.notStarted, {
      ceiling: "run ceiling $0.0150",
      iterationsLeft: 4,
    });
    assert.ok(
      first
        .data("info")
        .some(
          (info) =>
            info.message ===
            "Loop work ended: the run ceiling $0.0150 is spent; 4 iteration(s) not run (a later start with a higher ceiling runs them)",
        ),
    );
    const raised = await runHankForTest({ hank, continueFrom: first, options: { maxCostUsd: 1 } });
    assert.deepEqual(lifecycle(raised.events), [
      "started step#2",
      "completed step#2 ok",
      "iteration work#2",
      "started step#3",
      "completed step#3 ok",
      "iteration work#3",
      "started step#4",
      "completed step#4 ok",
      "iteration work#4",
      "started step#5",
      "completed step#5 ok",
      "final work#5 iteration_limit",
      "started d",
      "completed d ok",
    ]);
    assert.equal(raised.result.status, "completed");
  });

  it("--max-cost replaces the hank's dollar ceiling", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("a", `${spend(1.5, 1)}\n@sleep 10`)], {
        overrides: { budget: { maxDollars: 100 } },
      }),
      options: { maxCostUsd: 1 },
    });
    t.after(run.remove);
    const summary = run.data("budget.summary")[0];
    assert.deepEqual(summary?.ceiling, { maxDollars: 1 });
    assert.deepEqual(summary?.rows[0]?.budgetExceeded, { currency: "cost", limit: 1, used: 1.5 });
  });
});
