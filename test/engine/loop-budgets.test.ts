import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  hankOf,
  runHankForTest,
  scriptedCodon,
  scriptedLoop,
  startHankForTest,
} from "../../src/testing/index.ts";
import { infos, lifecycle, spend } from "./support.ts";

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
      {
        loopId: "L",
        iteration: 0,
        durationMs: 0,
        costUsd: 1.2,
        tokensUsed: 202,
        isFinal: true,
        endCause: "budget",
      },
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
