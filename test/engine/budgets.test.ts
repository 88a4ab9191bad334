import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  hankOf,
  type RunningHankTest,
  runHankForTest,
  scriptedCodon,
  scriptedLoop,
  startHankForTest,
} from "../../src/testing/index.ts";
import { infos, lifecycle } from "./support.ts";

const spend = (cost: number, output = 50): string => `@usage input=100 output=${output} cost=${cost}`;
const STOPPED = { stream: "aborted", toolBatch: "completed", turn: "aborted", codon: "aborted" };

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
      exitStatus: { type: "killed", signal: "SIGTERM" },
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
    assert.deepEqual(a?.exitStatus, { type: "killed", signal: "SIGTERM" });
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

describe("a time budget stops a session", () => {
  /** Starts `a` (asleep for ten minutes under a 2 s budget) and `b`; returns once the engine waits on time. */
  async function startSlow(onExceeded: "complete" | "fail"): Promise<RunningHankTest> {
    const running = startHankForTest({
      hank: hankOf([
        scriptedCodon("a", "@say started\n@sleep 600000", { budget: { maxTimeSeconds: 2, onExceeded } }),
        scriptedCodon("b", "@say b"),
      ]),
    });
    await running.waitForEvent("assistant.action");
    await running.clock.nextTimer((timer) => timer.delayMs === 600_000);
    assert.deepEqual(
      running.clock.pending().map((timer) => timer.delayMs),
      [2000, 180_000, 600_000],
    );
    return running;
  }

  it("onExceeded complete: stopped at 2 s with budgetExceeded duration, and the run goes on", async (t) => {
    const running = await startSlow("complete");
    t.after(running.remove);
    running.clock.advance(2000);
    const run = await running.done;
    assert.deepEqual(lifecycle(run.events), ["started a", "completed a ok", "started b", "completed b ok"]);
    const [a] = run.data("codon.completed");
    assert.deepEqual(
      { duration: a?.duration, budgetExceeded: a?.budgetExceeded, endReasons: a?.endReasons },
      { duration: 2000, budgetExceeded: { currency: "duration", limit: 2, used: 2 }, endReasons: STOPPED },
    );
    assert.deepEqual(run.data("budget.summary")[0]?.rows[0], {
      codonId: "a",
      status: "exceeded",
      budget: { maxTimeSeconds: 2 },
      // A turn stopped early reports no default usage.
      actual: { dollars: 0, timeSeconds: 2, outputTokens: 0 },
      budgetExceeded: { currency: "duration", limit: 2, used: 2 },
    });
    assert.equal(run.result.exitCode, 0);
  });

  it("onExceeded fail: the codon fails with the duration message and the run fails", async (t) => {
    const running = await startSlow("fail");
    t.after(running.remove);
    running.clock.advance(2000);
    const run = await running.done;
    assert.deepEqual(lifecycle(run.events), ["started a", "completed a failed"]);
    assert.equal(
      run.data("codon.completed")[0]?.failureReason?.message,
      "Budget exceeded: Duration 2.0s exceeded limit 2s",
    );
    assert.equal(run.result.exitCode, 1);
  });
});

describe("the hank's time budget", () => {
  /** Runs `a` for 3 s, then `b` until the hank's 5 s are gone, then `last` with no time left. */
  async function spendHankTime(last: string) {
    const running = startHankForTest({
      hank: hankOf(
        [
          scriptedCodon("a", "@say a\n@sleep 3000"),
          scriptedCodon("b", "@say b\n@sleep 600000"),
          scriptedCodon("c", last),
        ],
        { overrides: { budget: { maxTimeSeconds: 5 } } },
      ),
    });
    await running.waitForEvent("assistant.action", (e) => e.data.codonId === "a");
    await running.clock.advanceToNext((timer) => timer.delayMs === 3000);
    await running.waitForEvent("assistant.action", (e) => e.data.codonId === "b");
    await running.clock.nextTimer((timer) => timer.delayMs === 600_000);
    // b may use what the hank has left: 5 s - 3 s.
    assert.ok(running.clock.pending().some((timer) => timer.delayMs === 2000));
    running.clock.advance(2000);
    return running.done;
  }

  it("gives each codon what is left, and stops the codon that reaches it", async (t) => {
    const run = await spendHankTime("@say c");
    t.after(run.remove);
    const rows = run.data("budget.summary")[0]?.rows ?? [];
    assert.deepEqual(
      rows.map((row) => [row.codonId, row.status, row.budget.maxTimeSeconds, row.actual.timeSeconds]),
      [
        ["a", "completed", 5, 3],
        ["b", "exceeded", 2, 2],
        ["c", "exceeded", 0, 0],
      ],
    );
    const [, b, c] = run.data("codon.completed");
    assert.deepEqual(b?.endReasons, STOPPED);
    // c starts with nothing left: its first usage report reaches the limit and the engine stops it.
    assert.deepEqual(
      { exitStatus: c?.exitStatus, codonEnd: c?.endReasons?.codon, budgetExceeded: c?.budgetExceeded },
      {
        exitStatus: { type: "killed", signal: "SIGTERM" },
        codonEnd: "aborted",
        budgetExceeded: { currency: "duration", limit: 0, used: 0 },
      },
    );
    assert.equal(run.result.exitCode, 0);
  });

  it("never turns a failure the agent ended with into a budget completion", async (t) => {
    // c fails before any usage report; only the reading taken after its end reaches the (zero) limit.
    const run = await spendHankTime("@fail Your credit balance is too low");
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events).slice(-2), ["started c", "completed c failed"]);
    const c = run.data("codon.completed")[2];
    assert.deepEqual(
      {
        failureReason: c?.failureReason?.message,
        exitStatus: c?.exitStatus,
        codonEnd: c?.endReasons?.codon,
        budgetExceeded: c?.budgetExceeded,
      },
      {
        failureReason: "API billing/usage error: Your credit balance is too low",
        exitStatus: { type: "error", code: 1 },
        codonEnd: "error",
        budgetExceeded: { currency: "duration", limit: 0, used: 0 },
      },
    );
    assert.equal(run.result.exitCode, 1);
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

describe("budgets inside loops", () => {
  it("a loop budget running out removes the rest of that iteration; the run goes on", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedLoop(
          "L",
          { type: "iterationLimit", limit: 3 },
          [
            scriptedCodon("x", spend(0.6, 1)),
            scriptedCodon("y", `${spend(0.6, 1)}\n@sleep 1000`),
            scriptedCodon("z", "@say z"),
          ],
          { budget: { maxDollars: 1 } },
        ),
        scriptedCodon("B", "@say b"),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), [
      "started x#0",
      "completed x#0 ok",
      "started y#0",
      "completed y#0 ok",
      "final L#0 -",
      "started B",
      "completed B ok",
    ]);
    assert.deepEqual(run.data("codon.completed")[1]?.budgetExceeded, {
      currency: "cost",
      limit: 0.4,
      used: 0.6,
    });
    assert.deepEqual(run.data("loop.iteration.completed"), [
      { loopId: "L", iteration: 0, durationMs: 0, costUsd: 1.2, tokensUsed: 202, isFinal: true },
    ]);
    assert.deepEqual(infos(run.events), ["Loop L ended: its budget is exhausted"]);
    assert.deepEqual(
      run.result.plan.entries.map((e) => e.runtimeId),
      ["x#0", "y#0", "B"],
    );
    assert.deepEqual(run.result.plan.loops.L, { iteration: 0, terminated: true, endCause: "budget" });
    assert.equal(run.result.exitCode, 0);
  });

  it("a loop's time budget running out mid-iteration ends the loop there; the run goes on", async (t) => {
    const running = startHankForTest({
      hank: hankOf([
        scriptedLoop(
          "L",
          { type: "iterationLimit", limit: 3 },
          [
            scriptedCodon("x", "@say x\n@sleep 2000"),
            scriptedCodon("y", "@say y\n@sleep 600000"),
            scriptedCodon("z", "@say z"),
          ],
          { budget: { maxTimeSeconds: 3 } },
        ),
        scriptedCodon("B", "@say b"),
      ]),
    });
    t.after(running.remove);
    await running.waitForEvent("assistant.action", (e) => e.data.codonId === "x#0");
    await running.clock.advanceToNext((timer) => timer.delayMs === 2000);
    await running.waitForEvent("assistant.action", (e) => e.data.codonId === "y#0");
    await running.clock.nextTimer((timer) => timer.delayMs === 600_000);
    // y#0 may use what the loop has left: 3 s - 2 s.
    const budgetTimer = running.clock.pending().find((timer) => timer.delayMs === 1000);
    assert.ok(budgetTimer);
    running.clock.advance(1000);
    const run = await running.done;
    assert.deepEqual(lifecycle(run.events), [
      "started x#0",
      "completed x#0 ok",
      "started y#0",
      "completed y#0 ok",
      "final L#0 -",
      "started B",
      "completed B ok",
    ]);
    const [, y] = run.data("codon.completed");
    assert.deepEqual(
      { duration: y?.duration, budgetExceeded: y?.budgetExceeded },
      { duration: 1000, budgetExceeded: { currency: "duration", limit: 3, used: 3 } },
    );
    assert.deepEqual(
      run
        .data("budget.summary")[0]
        ?.rows.map((row) => [row.codonId, row.status, row.budget.maxTimeSeconds, row.actual.timeSeconds]),
      [
        ["x#0", "completed", 3, 2],
        ["y#0", "exceeded", 1, 1],
        ["B", "completed", undefined, 0],
      ],
    );
    assert.deepEqual(infos(run.events), ["Loop L ended: its budget is exhausted"]);
    assert.equal(run.result.exitCode, 0);
  });

  it("a codon's own cap running out ends only that codon; the loop carries on", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedLoop("L", { type: "iterationLimit", limit: 2 }, [
          scriptedCodon("x", `${spend(0.2, 1)}\n@sleep 1000`, { budget: { maxDollars: 0.1 } }),
          scriptedCodon("y", "@say y"),
        ]),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), [
      "started x#0",
      "completed x#0 ok",
      "started y#0",
      "completed y#0 ok",
      "iteration L#0",
      "started x#1",
      "completed x#1 ok",
      "started y#1",
      "completed y#1 ok",
      "final L#1 iteration_limit",
    ]);
    assert.deepEqual(
      run.data("codon.completed").map((c) => c.budgetExceeded?.limit),
      [0.1, undefined, 0.1, undefined],
    );
  });
});
