import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { LoopStopContext } from "../../src/engine/index.ts";
import { hankOf, runHankForTest, scriptedCodon, scriptedLoop } from "../../src/testing/index.ts";
import { lifecycle } from "./support.ts";

const LOOP = hankOf([
  scriptedLoop("L", { type: "iterationLimit", limit: 10 }, [
    scriptedCodon("code", "@append work.txt x\n@say wrote one more x"),
    scriptedCodon("review", "@say LGTM when three x"),
  ]),
  scriptedCodon("after", "@say done"),
]);

describe("caller-supplied loop stop rules", () => {
  it("an async rule that reads the workspace ends the loop with its own recorded cause", async () => {
    const seen: string[] = [];
    const run = await runHankForTest({
      hank: LOOP,
      stopRules: [
        async (context: LoopStopContext) => {
          seen.push(`${context.runtimeId} ${context.result?.text ?? "-"}`);
          await new Promise((resolve) => setImmediate(resolve));
          return context.codonId === "review" && context.iteration === 2
            ? { cause: "tests-pass" }
            : undefined;
        },
      ],
    });
    try {
      assert.equal(run.result.status, "completed");
      assert.deepEqual(lifecycle(run.events).slice(-5), [
        "started review#2",
        "completed review#2 ok",
        "final L#2 -",
        "started after",
        "completed after ok",
      ]);
      const final = run.data("loop.iteration.completed").at(-1);
      assert.equal(final?.isFinal, true);
      assert.equal(final?.terminationReason, undefined);
      assert.equal(final?.endCause, "tests-pass");
      assert.equal(seen[0], "code#0 wrote one more x");
      assert.equal(seen.length, 6);
      assert.ok(run.data("info").some((d) => d.message === 'Loop L ended: stop rule "tests-pass" fired'));
    } finally {
      run.remove();
    }
  });

  it("the built-in rules keep precedence: the iteration limit ends the loop before a caller rule is asked", async () => {
    const hank = hankOf([
      scriptedLoop("L", { type: "iterationLimit", limit: 1 }, [scriptedCodon("only", "@say once")]),
    ]);
    let asked = 0;
    const run = await runHankForTest({
      hank,
      stopRules: [
        () => {
          asked += 1;
          return { cause: "never" };
        },
      ],
    });
    try {
      assert.equal(run.data("loop.iteration.completed").at(-1)?.terminationReason, "iteration_limit");
      assert.equal(asked, 0);
    } finally {
      run.remove();
    }
  });

  it("a rule that throws fails the run with its message", async () => {
    const run = await runHankForTest({
      hank: LOOP,
      stopRules: [
        () => {
          throw new Error("the test command is missing");
        },
      ],
    });
    try {
      assert.equal(run.result.status, "failed");
      assert.match(run.result.message, /A stop rule failed after codon code#0: the test command is missing/);
    } finally {
      run.remove();
    }
  });

  it("after a resume, the plan remembers a loop a rule ended", async () => {
    const first = await runHankForTest({
      hank: LOOP,
      stopRules: [(context) => (context.codonId === "code" ? { cause: "enough" } : undefined)],
    });
    const again = await runHankForTest({ hank: LOOP, continueFrom: first });
    try {
      assert.equal(first.result.status, "completed");
      assert.deepEqual(lifecycle(again.events), []);
    } finally {
      again.remove();
    }
  });
});
