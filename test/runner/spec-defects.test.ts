import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hankOf, runHankForTest, scriptedCodon, scriptedLoop } from "../../src/testing/index.ts";
import { lifecycle, spend } from "../engine/support.ts";

/** Item: spec defects found by hidden cases, each checked against what the spec says. */
describe("spec defects", () => {
  it("a loop budget that runs out under onExceeded: fail ends the loop even when the codon ignores failures", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedLoop(
          "L",
          { type: "iterationLimit", limit: 3 },
          [
            scriptedCodon("x", spend(0.3, 1), { onFailure: "ignore" }),
            scriptedCodon("y", spend(0.3, 1), { onFailure: "ignore" }),
          ],
          { budget: { maxDollars: 0.25, onExceeded: "fail" } },
        ),
        scriptedCodon("B", "@say b"),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), [
      "started x#0",
      "completed x#0 ignored",
      "final L#0 -",
      "started B",
      "completed B ok",
    ]);
    assert.equal(run.data("loop.iteration.completed")[0]?.endCause, "budget");
    assert.deepEqual(
      run.result.plan.entries.map((e) => e.runtimeId),
      ["x#0", "B"],
      "the rest of the iteration is dropped",
    );
    assert.equal(run.state.totals.cost, 0.3, "nothing is spent past the budget");
    assert.equal(run.result.status, "completed");
  });

  it("a first codon with continue-previous starts a fresh session, in a loop as at the top", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedLoop("L", { type: "iterationLimit", limit: 2 }, [
          scriptedCodon("x", "@say x", { continuationMode: "continue-previous" }),
        ]),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), [
      "started x#0",
      "completed x#0 ok",
      "iteration L#0",
      "started x#1",
      "completed x#1 ok",
      "final L#1 iteration_limit",
    ]);
    const started = run.data("codon.started");
    assert.equal(started[0]?.previousSessionId, undefined, "x#0 has no previous session: it starts fresh");
    assert.equal(started[1]?.sessionId, started[0]?.sessionId, "x#1 continues x#0's session");
    assert.equal(run.state.codons.filter((c) => c.status === "completed").length, 2);
  });

  it("the run's closing message counts the failures it ignored", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("a", "@fail boom", { onFailure: "ignore" }), scriptedCodon("b", "@say b")]),
    });
    t.after(run.remove);
    assert.equal(run.result.status, "completed");
    assert.equal(run.result.message, "All codons finished; 1 failed and was ignored (a)");
    assert.deepEqual(run.data("server.idle").at(-1), {
      reason: "all-codons-completed",
      message: "All codons finished; 1 failed and was ignored (a)",
    });
  });
});
