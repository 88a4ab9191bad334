import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { hankOf, runHankForTest, scriptedCodon, scriptedLoop } from "../../src/testing/index.ts";

/**
 * Every stop path the scripted agent can express, as the engine records it: the codon's end reasons
 * and outcome in `codon.completed`, for the cases docs/scripted-agent.md describes.
 */
describe("scripted agent stop paths through the engine", () => {
  it("a truncated call the turn went on after: later steps ran, the turn still records max-tokens", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("m", "@max-tokens continue write plan.md\n@write done.txt ok\n@say done")]),
    });
    t.after(run.remove);
    assert.equal(readFileSync(join(run.agentRoot, "done.txt"), "utf8"), "ok");
    assert.equal(existsSync(join(run.agentRoot, "plan.md")), false);
    const [completed] = run.data("codon.completed");
    assert.equal(completed?.success, false);
    assert.deepEqual(completed?.endReasons, {
      stream: "completed",
      toolBatch: "completed",
      turn: "max-tokens",
      codon: "max-tokens",
    });
    assert.match(completed?.failureReason?.message ?? "", /Write tool call on plan\.md.*the turn went on/);
  });

  it("@exhaust-context in a plain codon completes with autoCompact and fails without it", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("compacts", "@say working\n@exhaust-context", { autoCompact: true }),
        scriptedCodon("overflows", "@exhaust-context", { onFailure: "ignore" }),
      ]),
    });
    t.after(run.remove);
    const [compacts, overflows] = run.data("codon.completed");
    assert.equal(compacts?.success, true);
    assert.deepEqual(compacts?.endReasons, {
      stream: "completed",
      toolBatch: "completed",
      turn: "completed",
      codon: "completed",
    });
    assert.equal(overflows?.success, false);
    assert.equal(overflows?.endReasons?.turn, "error");
  });

  it("a tool call refused by permissions: the codon completes and its turn ends blocked", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("b", "@blocked write secrets.env\n@say Could not write it.")]),
    });
    t.after(run.remove);
    assert.equal(existsSync(join(run.agentRoot, "secrets.env")), false);
    const [completed] = run.data("codon.completed");
    assert.equal(completed?.success, true);
    assert.deepEqual(completed?.endReasons, {
      stream: "completed",
      toolBatch: "blocked",
      turn: "blocked",
      codon: "completed",
    });
    assert.deepEqual(
      run.data("tool.result").map((r) => [r.toolName, r.isError]),
      [["Write", true]],
    );
  });

  it("an agent that ends without a result is retried, and the retry can succeed", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("c", "@crash attempts=1 137\n@write out.txt second", {
          onFailure: "retry",
          retryConfig: { maxAttempts: 2, delayMs: 0 },
        }),
      ]),
    });
    t.after(run.remove);
    const attempts = run.data("codon.completed");
    assert.deepEqual(
      attempts.map((c) => [c.success, c.failureReason?.message ?? null]),
      [
        [false, "Codon process exited without a result message (exit code 137)"],
        [true, null],
      ],
    );
    assert.equal(readFileSync(join(run.agentRoot, "out.txt"), "utf8"), "second");
  });

  it("iterations= limits a step to some loop iterations", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedLoop("l", { type: "iterationLimit", limit: 3 }, [
          scriptedCodon("step", "@append log.txt ran\n@usage iterations=1 input=10 output=5 cost=0.25"),
        ]),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(
      run.data("codon.completed").map((c) => [c.codonId, c.cost]),
      [
        ["step#0", 0],
        ["step#1", 0.25],
        ["step#2", 0],
      ],
    );
  });
});
