import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hankOf, runHankForTest, scriptedCodon } from "../../src/testing/index.ts";
import { lifecycle } from "./support.ts";

const tokens = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
});

describe("exhaustWithPrompt extensions", () => {
  it("resume the session until its context overflows, then the codon succeeds and the run goes on", async (t) => {
    // 1,100 tokens, then 60,000 per extension in a 200,000 window: extensions 1-3 fit (181,100),
    // extension 4 overflows.
    const extend = "@usage input=50000 output=10000 cost=0.1";
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("w", "@usage input=1000 output=100 cost=0.01", { exhaustWithPrompt: extend }),
        scriptedCodon("n", "@say next"),
      ]),
    });
    t.after(run.remove);
    const extended = (n: number, input: number, output: number, cumulativeCost: number) => ({
      codonId: "w",
      codonName: "w",
      extensionNumber: n,
      exhaustWithPrompt: extend,
      cumulativeTokens: tokens(input, output),
      cumulativeCost,
    });
    assert.deepEqual(run.data("codon.extended"), [
      extended(1, 1000, 100, 0.01),
      extended(2, 51_000, 10_100, 0.11),
      extended(3, 101_000, 20_100, 0.21),
      extended(4, 151_000, 30_100, 0.31),
    ]);
    assert.deepEqual(lifecycle(run.events), ["started w", "completed w ok", "started n", "completed n ok"]);
    const [w] = run.data("codon.completed");
    assert.deepEqual(
      { cost: w?.cost, endReasons: w?.endReasons },
      {
        cost: 0.31,
        endReasons: { stream: "error", toolBatch: "completed", turn: "error", codon: "completed" },
      },
    );
    // One codon.started: extensions resume the same session, they are not new codons.
    assert.deepEqual(
      run.data("codon.started").map((s) => [s.codonId, s.sessionId]),
      [
        ["w", "s-1"],
        ["n", "s-2"],
      ],
    );
    const record = run.state.codons[0];
    assert.deepEqual(
      { extensions: record?.extensions, cost: record?.cost, output: record?.tokens.output },
      { extensions: 4, cost: 0.31, output: 30_100 },
    );
    assert.equal(run.result.exitCode, 0);
  });

  it("stop at maxExtensions when the context never runs out", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("w", "@say go", { exhaustWithPrompt: "@say more", maxExtensions: 2 })]),
    });
    t.after(run.remove);
    assert.deepEqual(
      run.data("codon.extended").map((e) => e.extensionNumber),
      [1, 2],
    );
    assert.deepEqual(
      run.data("assistant.action").map((a) => a.content),
      ["go", "more", "more"],
    );
    assert.deepEqual(run.data("codon.completed")[0]?.endReasons, {
      stream: "completed",
      toolBatch: "completed",
      turn: "completed",
      codon: "completed",
    });
    assert.equal(run.state.codons[0]?.extensions, 2);
    assert.equal(run.result.exitCode, 0);
  });

  it("end at once on @exhaust-context in the first extension", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([scriptedCodon("w", "@say go", { exhaustWithPrompt: "@exhaust-context" })]),
    });
    t.after(run.remove);
    assert.deepEqual(
      run.data("codon.extended").map((e) => e.extensionNumber),
      [1],
    );
    assert.deepEqual(lifecycle(run.events), ["started w", "completed w ok"]);
    assert.equal(run.result.status, "completed");
  });

  it("do not start when the codon's own prompt fails", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("w", "@fail Your credit balance is too low", { exhaustWithPrompt: "@say more" }),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(run.data("codon.extended"), []);
    assert.deepEqual(lifecycle(run.events), ["started w", "completed w failed"]);
  });
});
