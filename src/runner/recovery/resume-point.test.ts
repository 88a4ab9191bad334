import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HankFile } from "../../hank/schema/index.ts";
import { buildPlan, isPlanFinished, replayLoopReports } from "../../plan/index.ts";
import { hankOf, scriptedCodon, scriptedLoop } from "../../testing/hank-builders.ts";
import { continueRaisedLimits } from "./resume-point.ts";

function hankWithLimit(limit: number) {
  return HankFile.parse(
    hankOf([
      scriptedCodon("first", "@say hi"),
      scriptedLoop("L", { type: "iterationLimit", limit }, [scriptedCodon("x", "@say x")]),
      scriptedCodon("last", "@say bye"),
    ]),
  );
}

/** The plan of a finished run of the hank with a limit of 2: first, x#0, x#1, last. */
function finishedPlan() {
  const reports = [
    { loopId: "L", iteration: 0, isFinal: false },
    { loopId: "L", iteration: 1, isFinal: true, terminationReason: "iteration_limit" as const },
  ];
  const finished = new Set(["first", "x#0", "x#1", "last"]);
  return { plan: replayLoopReports(buildPlan(hankWithLimit(2)), reports, finished), finished };
}

describe("continueRaisedLimits", () => {
  it("plans the next iteration of a loop whose limit was raised after it ended at the old one", () => {
    const { plan, finished } = finishedPlan();
    assert.ok(isPlanFinished(plan, finished));
    const raised = continueRaisedLimits(hankWithLimit(4), plan);
    assert.deepEqual(
      raised.entries.map((e) => e.runtimeId),
      ["first", "x#0", "x#1", "x#2", "last"],
    );
    assert.deepEqual(raised.loops.L, { iteration: 2, terminated: false });
    assert.equal(isPlanFinished(raised, finished), false);
  });

  it("leaves the plan alone when the limit is the same or lower", () => {
    const { plan } = finishedPlan();
    assert.equal(continueRaisedLimits(hankWithLimit(2), plan), plan);
    assert.equal(continueRaisedLimits(hankWithLimit(1), plan), plan);
  });
});
