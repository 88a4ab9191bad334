import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hankOf, runHankForTest, scriptedCodon, scriptedLoop } from "../../src/testing/index.ts";
import { infos, lifecycle } from "./support.ts";

const CONTEXT_EXCEEDED = { type: "contextExceeded" } as const;
const continuing = { continuationMode: "continue-previous" } as const;

describe("iteration loops (scenario 8)", () => {
  it("runs A, x#0, y#0, x#1, y#1, x#2, y#2, B and reports three iterations, the last final", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("A", "@say a"),
        scriptedLoop("L", { type: "iterationLimit", limit: 3 }, [
          scriptedCodon("x", "@say x"),
          scriptedCodon("y", "@say y"),
        ]),
        scriptedCodon("B", "@say b"),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), [
      "started A",
      "completed A ok",
      "started x#0",
      "completed x#0 ok",
      "started y#0",
      "completed y#0 ok",
      "iteration L#0",
      "started x#1",
      "completed x#1 ok",
      "started y#1",
      "completed y#1 ok",
      "iteration L#1",
      "started x#2",
      "completed x#2 ok",
      "started y#2",
      "completed y#2 ok",
      "final L#2 iteration_limit",
      "started B",
      "completed B ok",
    ]);
    assert.deepEqual(
      run.data("loop.iteration.completed").map((d) => [d.iteration, d.isFinal, d.terminationReason]),
      [
        [0, false, undefined],
        [1, false, undefined],
        [2, true, "iteration_limit"],
      ],
    );
    assert.equal(run.result.exitCode, 0);
    assert.deepEqual(run.state.loops.L?.iterationsCompleted, 3);
  });
});

describe("contextExceeded loops (scenario 9)", () => {
  for (const autoCompact of [false, true]) {
    it(`end after gen#0 when the agent exhausts its context (autoCompact ${autoCompact}); the next codon runs`, async (t) => {
      const run = await runHankForTest({
        hank: hankOf([
          scriptedCodon("setup", "@say ready"),
          scriptedLoop("refine", CONTEXT_EXCEEDED, [
            scriptedCodon("gen", "@say drafting\n@exhaust-context", { ...continuing, autoCompact }),
          ]),
          scriptedCodon("after", "@say done"),
        ]),
      });
      t.after(run.remove);
      assert.deepEqual(lifecycle(run.events), [
        "started setup",
        "completed setup ok",
        "started gen#0",
        "completed gen#0 ok",
        "final refine#0 context_exceeded",
        "started after",
        "completed after ok",
      ]);
      assert.deepEqual(infos(run.events), [
        ...(autoCompact ? ["Codon gen#0: the agent compacted its context"] : []),
        "Codon gen#0 completed successfully due to context exceeded",
      ]);
      const gen = run.data("codon.completed").find((c) => c.codonId === "gen#0");
      assert.equal(gen?.success, true);
      assert.deepEqual(gen?.endReasons, {
        stream: autoCompact ? "completed" : "error",
        toolBatch: "completed",
        turn: autoCompact ? "completed" : "error",
        codon: "completed",
      });
      assert.deepEqual(
        run.state.codons.map((c) => [c.id, c.status]),
        [
          ["setup", "completed"],
          ["gen#0", "completed"],
          ["after", "completed"],
        ],
      );
      assert.equal(run.result.status, "completed");
    });
  }

  it("ends at whichever codon exhausts the context, dropping the rest of that iteration", async (t) => {
    // The shared session holds 1,000 tokens after setup; each loop codon adds 40,000 to the 200,000
    // window: g1#0 41k, g2#0 81k, g3#0 121k, g1#1 161k, and g2#1 would reach 201k, so it overflows.
    const step = "@usage input=40000 output=0";
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("setup", "@usage input=1000 output=0"),
        scriptedLoop("fill", CONTEXT_EXCEEDED, [
          scriptedCodon("g1", step, continuing),
          scriptedCodon("g2", step, continuing),
          scriptedCodon("g3", step, continuing),
        ]),
        scriptedCodon("after", "@say done"),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), [
      "started setup",
      "completed setup ok",
      "started g1#0",
      "completed g1#0 ok",
      "started g2#0",
      "completed g2#0 ok",
      "started g3#0",
      "completed g3#0 ok",
      "iteration fill#0",
      "started g1#1",
      "completed g1#1 ok",
      "started g2#1",
      "completed g2#1 ok",
      "final fill#1 context_exceeded",
      "started after",
      "completed after ok",
    ]);
    assert.deepEqual(
      run.result.plan.entries.map((e) => e.runtimeId),
      ["setup", "g1#0", "g2#0", "g3#0", "g1#1", "g2#1", "after"],
    );
    const sessions = run.data("codon.started").map((s) => [s.codonId, s.sessionId, s.previousSessionId]);
    assert.deepEqual(sessions, [
      ["setup", "s-1", undefined],
      ["g1#0", "s-1", "s-1"],
      ["g2#0", "s-1", "s-1"],
      ["g3#0", "s-1", "s-1"],
      ["g1#1", "s-1", "s-1"],
      ["g2#1", "s-1", "s-1"],
      ["after", "s-2", undefined],
    ]);
    assert.deepEqual(infos(run.events), ["Codon g2#1 completed successfully due to context exceeded"]);
    assert.equal(run.result.exitCode, 0);
  });

  it("fails a plain codon that exhausts its context, and the run with it", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("solo", "@exhaust-context"), scriptedCodon("never", "@say no")]),
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), ["started solo", "completed solo failed"]);
    const [completed] = run.data("codon.completed");
    assert.deepEqual(completed?.failureReason, {
      type: "api-error",
      retriable: false,
      message: "Context window exceeded (overflow); only a contextExceeded loop ends on context exhaustion",
    });
    assert.equal(completed?.failedDuring, "running");
    assert.deepEqual(infos(run.events), []);
    assert.deepEqual(
      { status: run.result.status, exitCode: run.result.exitCode },
      { status: "failed", exitCode: 1 },
    );
    assert.deepEqual(
      run.state.codons.map((c) => [c.id, c.status]),
      [["solo", "failed"]],
    );
  });

  it("fails a codon of an iterationLimit loop that exhausts its context, ending the loop on failure", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedLoop("L", { type: "iterationLimit", limit: 3 }, [scriptedCodon("x", "@exhaust-context")]),
        scriptedCodon("never", "@say no"),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), ["started x#0", "completed x#0 failed", "final L#0 failure"]);
    assert.equal(run.result.exitCode, 1);
  });
});

describe("onFailure inside loops", () => {
  it("ignore keeps the loop going: every iteration runs and the run completes", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedLoop("L", { type: "iterationLimit", limit: 2 }, [
          scriptedCodon("x", "@fail Your credit balance is too low", { onFailure: "ignore" }),
          scriptedCodon("y", "@say y"),
        ]),
        scriptedCodon("B", "@say b"),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(lifecycle(run.events), [
      "started x#0",
      "completed x#0 ignored",
      "started y#0",
      "completed y#0 ok",
      "iteration L#0",
      "started x#1",
      "completed x#1 ignored",
      "started y#1",
      "completed y#1 ok",
      "final L#1 iteration_limit",
      "started B",
      "completed B ok",
    ]);
    const ignored = run.data("codon.completed").filter((c) => c.failureIgnored === true);
    assert.deepEqual(
      ignored.map((c) => [c.codonId, c.success, c.failureReason?.retriable]),
      [
        ["x#0", false, false],
        ["x#1", false, false],
      ],
    );
    assert.deepEqual(
      { status: run.result.status, exitCode: run.result.exitCode },
      { status: "completed", exitCode: 0 },
    );
  });

  it("ignore keeps the loop going when the rig setup fails in every iteration", async (t) => {
    const prepared: string[] = [];
    const run = await runHankForTest({
      hank: hankOf([
        scriptedLoop("L", { type: "iterationLimit", limit: 2 }, [
          scriptedCodon("x", "@say never runs", {
            onFailure: "ignore",
            rigSetup: [{ type: "command", command: { run: "exit 1" } }],
          }),
        ]),
      ]),
      hooks: {
        prepareCodon: async (context) => {
          prepared.push(context.entry.runtimeId);
          return { ok: false, message: "Rig command 1 exited with code 1" };
        },
      },
    });
    t.after(run.remove);
    assert.deepEqual(prepared, ["x#0", "x#1"]);
    assert.deepEqual(lifecycle(run.events), [
      "completed x#0 ignored",
      "iteration L#0",
      "completed x#1 ignored",
      "final L#1 iteration_limit",
    ]);
    assert.deepEqual(
      run.data("codon.completed").map((c) => [c.codonId, c.failedDuring, c.failureReason?.message]),
      [
        ["x#0", "preparing", "Rig command 1 exited with code 1"],
        ["x#1", "preparing", "Rig command 1 exited with code 1"],
      ],
    );
    assert.deepEqual(
      run.state.codons.map((c) => [c.id, c.status, c.failureIgnored, c.failedDuring]),
      [
        ["x#0", "failed", true, "preparing"],
        ["x#1", "failed", true, "preparing"],
      ],
    );
    assert.equal(run.result.exitCode, 0);
  });
});
