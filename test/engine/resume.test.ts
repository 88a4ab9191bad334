import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { initialRunState, readAll, reduce } from "../../src/journal/index.ts";
import { reopenLoop } from "../../src/plan/index.ts";
import { hankOf, runHankForTest, scriptedCodon, scriptedLoop } from "../../src/testing/index.ts";
import { lifecycle } from "./support.ts";

/** Fails on the codon execution's first attempt only; attempt numbers carry over between runs. */
const FLAKY = "@fail attempts=1 Your credit balance is too low\n@say recovered";

describe("continuing a failed run", () => {
  it("skips the finished codons and retries the failed one as its next attempt", async (t) => {
    const hank = hankOf([
      scriptedCodon("a", "@say a"),
      scriptedCodon("b", FLAKY),
      scriptedCodon("c", "@say c"),
    ]);
    const first = await runHankForTest({ hank });
    t.after(first.remove);
    assert.deepEqual(lifecycle(first.events), [
      "started a",
      "completed a ok",
      "started b",
      "completed b failed",
    ]);

    const second = await runHankForTest({ hank, continueFrom: first });
    assert.deepEqual(lifecycle(second.events), [
      "started b",
      "completed b ok",
      "started c",
      "completed c ok",
    ]);
    const [started] = second.events;
    assert.deepEqual(started?.type === "state.transition" && started.data.transition, {
      type: "RunStarted",
      data: { startingConditions: { type: "continuation" }, planSize: { codons: 3, loops: {} } },
    });
    assert.deepEqual(
      second.data("codon.started").map((s) => [s.codonId, s.attempt, s.sessionId]),
      [
        ["b", 2, "s2-1"],
        ["c", 1, "s2-2"],
      ],
    );
    assert.deepEqual(
      second.state.runs.map((r) => [r.id, r.status]),
      [
        ["run-1", "failed"],
        ["run-2", "completed"],
      ],
    );
    assert.deepEqual(
      second.state.codons.map((c) => [c.id, c.status, c.attempts]),
      [
        ["a", "completed", 1],
        ["b", "completed", 2],
        ["c", "completed", 1],
      ],
    );
    // One journal for both runs: it validates and reduces to the same state.
    const read = await readAll(second.journalPath, { validate: true });
    assert.equal(read.events.length, first.events.length + second.events.length);
    assert.deepEqual(read.events.reduce(reduce, initialRunState()), second.state);
  });

  it("resumes a loop that ended on a failure once the plan reopens it", async (t) => {
    const hank = hankOf([
      scriptedLoop("L", { type: "iterationLimit", limit: 2 }, [
        scriptedCodon("x", FLAKY),
        scriptedCodon("y", "@say y"),
      ]),
      scriptedCodon("B", "@say b"),
    ]);
    const first = await runHankForTest({ hank });
    t.after(first.remove);
    assert.deepEqual(lifecycle(first.events), ["started x#0", "completed x#0 failed", "final L#0 failure"]);

    const second = await runHankForTest({
      hank,
      continueFrom: first,
      plan: reopenLoop(first.result.plan, "L"),
    });
    // x#1 is a new execution with attempts of its own, so its first attempt fails again.
    assert.deepEqual(lifecycle(second.events), [
      "started x#0",
      "completed x#0 ok",
      "started y#0",
      "completed y#0 ok",
      "iteration L#0",
      "started x#1",
      "completed x#1 failed",
      "final L#1 failure",
    ]);
    assert.equal(second.result.exitCode, 1);
  });
});
