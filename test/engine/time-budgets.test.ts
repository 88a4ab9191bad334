import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hankOf, type RunningHankTest, scriptedCodon, startHankForTest } from "../../src/testing/index.ts";
import { lifecycle, STOPPED } from "./support.ts";

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

  it("gives each codon what is left, stops the codon that reaches it, and starves the ones after it", async (t) => {
    const run = await spendHankTime("@say c");
    t.after(run.remove);
    const rows = run.data("budget.summary")[0]?.rows ?? [];
    assert.deepEqual(
      rows.map((row) => [row.codonId, row.status, row.budget.maxTimeSeconds, row.actual.timeSeconds]),
      [
        ["a", "completed", 5, 3],
        ["b", "exceeded", 2, 2],
        ["c", "exceeded", undefined, 0],
      ],
    );
    const [, b] = run.data("codon.completed");
    assert.deepEqual(b?.endReasons, STOPPED);
    // c would start with nothing left, only to be stopped at its first usage report: it completes
    // without starting (the reference's starvation), and the run completes.
    assert.deepEqual(lifecycle(run.events).slice(-3), ["started b", "completed b ok", "completed c ok"]);
    const c = run.data("codon.completed")[2];
    assert.deepEqual(c?.notStarted, { ceiling: "run ceiling 5 s" });
    assert.equal(c?.budgetExceeded?.currency, "duration");
    assert.equal(run.result.status, "completed");
    assert.equal(run.result.exitCode, 0);
  });

  it("a spent run time ceiling starts no further codon: b completes without starting", async (t) => {
    const running = startHankForTest({
      hank: hankOf([scriptedCodon("a", "@say started\n@sleep 600000"), scriptedCodon("b", "@say b")]),
      options: { maxTimeSeconds: 2 },
    });
    t.after(running.remove);
    await running.waitForEvent("assistant.action");
    await running.clock.nextTimer((timer) => timer.delayMs === 600_000);
    running.clock.advance(2000);
    const run = await running.done;
    assert.deepEqual(lifecycle(run.events), ["started a", "completed a ok", "completed b ok"]);
    assert.equal(run.data("codon.completed")[0]?.budgetExceeded?.currency, "duration");
    assert.deepEqual(run.data("codon.completed")[1]?.notStarted, { ceiling: "run ceiling 2 s" });
    assert.equal(run.result.exitCode, 0);
  });
});
