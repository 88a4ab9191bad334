import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TerminateOn } from "../hank/schema/index.ts";
import { decideAfterCodon } from "./decide-after-codon.ts";
import type { PlannedCodon } from "./execution-plan.ts";
import type { CodonFinish, LoopStopRule } from "./stop-rules.ts";
import { carriesOn, LOOP_STOP_RULES, stopOnBudget } from "./stop-rules.ts";

const TOP: PlannedCodon = { runtimeId: "A", configId: "A", topIndex: 0 };
const LIMIT_3: TerminateOn = { type: "iterationLimit", limit: 3 };
const CONTEXT: TerminateOn = { type: "contextExceeded" };

/** Codon `c<position>` of loop L, in a 3-codon body. */
function inLoop(iteration: number, position: number): PlannedCodon {
  const loop = { loopId: "L", iteration, position, isLast: position === 2 };
  return { runtimeId: `c${position}#${iteration}`, configId: `c${position}`, topIndex: 1, loop };
}

const decide = (entry: PlannedCodon, finish: CodonFinish, terminateOn?: TerminateOn) =>
  decideAfterCodon({ entry, finish, terminateOn });

describe("decideAfterCodon outside loops", () => {
  it("continues after success, skip, ignored failure and any budget", () => {
    for (const finish of [
      { kind: "completed" },
      { kind: "skipped" },
      { kind: "failed-ignored" },
      { kind: "budget-exceeded", scope: "hank" },
    ] as const) {
      assert.deepEqual(decide(TOP, finish), { kind: "continue", runtimeId: "A" });
    }
  });

  it("fails the codon on context exhaustion and halts on a final failure", () => {
    assert.deepEqual(decide(TOP, { kind: "context-exceeded" }), {
      kind: "codon-fails",
      runtimeId: "A",
      reason: "context-exceeded",
      message: 'Codon "A" exhausted its context; only a contextExceeded loop ends on context exhaustion',
    });
    assert.deepEqual(decide(TOP, { kind: "failed" }), { kind: "halt", runtimeId: "A" });
  });
});

describe("decideAfterCodon inside loops", () => {
  it("continues mid-iteration and expands the next iteration at the last codon", () => {
    assert.deepEqual(decide(inLoop(0, 1), { kind: "completed" }, LIMIT_3), {
      kind: "continue",
      runtimeId: "c1#0",
    });
    assert.deepEqual(decide(inLoop(1, 2), { kind: "completed" }, LIMIT_3), {
      kind: "next-iteration",
      loopId: "L",
      iteration: 1,
      next: 2,
    });
    assert.equal(decide(inLoop(7, 2), { kind: "completed" }, CONTEXT).kind, "next-iteration");
  });

  it("ends with iteration_limit only at the last codon of iteration limit-1", () => {
    assert.deepEqual(decide(inLoop(2, 2), { kind: "failed-ignored" }, LIMIT_3), {
      kind: "loop-ends",
      loopId: "L",
      iteration: 2,
      afterRuntimeId: "c2#2",
      cause: "iteration_limit",
      terminationReason: "iteration_limit",
      dropRemaining: false,
      runContinues: true,
    });
    assert.equal(decide(inLoop(2, 1), { kind: "completed" }, LIMIT_3).kind, "continue");
  });

  it("ends on context exhaustion at any codon of a contextExceeded loop, dropping the rest", () => {
    assert.deepEqual(decide(inLoop(4, 0), { kind: "context-exceeded" }, CONTEXT), {
      kind: "loop-ends",
      loopId: "L",
      iteration: 4,
      afterRuntimeId: "c0#4",
      cause: "context_exceeded",
      terminationReason: "context_exceeded",
      dropRemaining: true,
      runContinues: true,
    });
    const atLast = decide(inLoop(4, 2), { kind: "context-exceeded" }, CONTEXT);
    assert.equal(atLast.kind === "loop-ends" && atLast.dropRemaining, false);
  });

  it("fails the codon on context exhaustion in an iterationLimit loop, even at the final codon", () => {
    assert.equal(decide(inLoop(0, 0), { kind: "context-exceeded" }, LIMIT_3).kind, "codon-fails");
    assert.equal(decide(inLoop(2, 2), { kind: "context-exceeded" }, LIMIT_3).kind, "codon-fails");
  });

  it("ends on a loop or hank budget at any codon, with no event terminationReason", () => {
    const expected = {
      kind: "loop-ends",
      loopId: "L",
      iteration: 0,
      afterRuntimeId: "c0#0",
      cause: "budget",
      dropRemaining: true,
      runContinues: true,
    };
    assert.deepEqual(decide(inLoop(0, 0), { kind: "budget-exceeded", scope: "loop" }, LIMIT_3), expected);
    assert.deepEqual(decide(inLoop(0, 0), { kind: "budget-exceeded", scope: "hank" }, CONTEXT), expected);
  });

  it("puts budget before the iteration limit at the final codon", () => {
    const decision = decide(inLoop(2, 2), { kind: "budget-exceeded", scope: "loop" }, LIMIT_3);
    assert.equal(decision.kind === "loop-ends" && decision.cause, "budget");
  });

  it("treats a codon's own budget cap as a completed codon", () => {
    const finish = { kind: "budget-exceeded", scope: "codon" } as const;
    assert.equal(decide(inLoop(0, 0), finish, LIMIT_3).kind, "continue");
    assert.equal(decide(inLoop(0, 2), finish, LIMIT_3).kind, "next-iteration");
    assert.equal(decide(inLoop(2, 2), finish, LIMIT_3).kind, "loop-ends");
  });

  it("ends with failure on a final failure, keeping the rest and stopping the run", () => {
    assert.deepEqual(decide(inLoop(1, 0), { kind: "failed" }, LIMIT_3), {
      kind: "loop-ends",
      loopId: "L",
      iteration: 1,
      afterRuntimeId: "c0#1",
      cause: "failure",
      terminationReason: "failure",
      dropRemaining: false,
      runContinues: false,
    });
  });

  it("throws when a loop codon comes without its terminateOn", () => {
    assert.throws(() => decide(inLoop(0, 0), { kind: "completed" }), /needs its loop's terminateOn/);
  });
});

describe("stop rules compose", () => {
  it("tries caller rules in order, first match wins", () => {
    const skipAtSecond: LoopStopRule = ({ placement }) =>
      placement.position === 1 ? { cause: "sentinel_skip", dropRemaining: true } : undefined;
    const rules = [...LOOP_STOP_RULES, skipAtSecond];
    const decision = decideAfterCodon(
      { entry: inLoop(0, 1), finish: { kind: "completed" }, terminateOn: CONTEXT },
      rules,
    );
    assert.equal(decision.kind === "loop-ends" && decision.terminationReason, "sentinel_skip");
    assert.equal(decision.kind === "loop-ends" && decision.dropRemaining, true);
  });

  it("without the failure rule a loop failure only halts", () => {
    const decision = decideAfterCodon(
      { entry: inLoop(0, 0), finish: { kind: "failed" }, terminateOn: LIMIT_3 },
      [stopOnBudget],
    );
    assert.deepEqual(decision, { kind: "halt", runtimeId: "c0#0" });
  });

  it("carries on only after finishes that let an iteration proceed", () => {
    const kinds = (
      [
        { kind: "completed" },
        { kind: "skipped" },
        { kind: "failed-ignored" },
        { kind: "budget-exceeded", scope: "codon" },
        { kind: "budget-exceeded", scope: "loop" },
        { kind: "context-exceeded" },
        { kind: "failed" },
      ] as const
    ).map(carriesOn);
    assert.deepEqual(kinds, [true, true, true, true, false, false, false]);
  });
});
