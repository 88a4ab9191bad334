import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hankOf, runHankForTest, scriptedCodon, scriptedLoop } from "../../src/testing/index.ts";
import { lifecycle } from "./support.ts";

const continuing = { continuationMode: "continue-previous" } as const;

describe("continue-previous", () => {
  it("resumes the previous codon's session: same session id, previousSessionId on codon.started", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("plan", "@say plan"),
        scriptedCodon("build", "@say build", continuing),
        scriptedCodon("fresh", "@say anew"),
        scriptedCodon("polish", "@say polish", continuing),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(
      run.data("codon.started").map((s) => [s.codonId, s.sessionId, s.previousSessionId]),
      [
        ["plan", "s-1", undefined],
        ["build", "s-1", "s-1"],
        ["fresh", "s-2", undefined],
        ["polish", "s-2", "s-2"],
      ],
    );
    assert.deepEqual(
      run.state.codons.map((c) => [c.id, c.sessionId]),
      [
        ["plan", "s-1"],
        ["build", "s-1"],
        ["fresh", "s-2"],
        ["polish", "s-2"],
      ],
    );
  });

  it("carries the session through loop iterations and across the loop boundary", async (t) => {
    const run = await runHankForTest({
      hank: hankOf([
        scriptedCodon("setup", "@say setup"),
        scriptedLoop("L", { type: "iterationLimit", limit: 2 }, [
          scriptedCodon("step", "@say step", continuing),
        ]),
        scriptedCodon("wrap", "@say wrap", continuing),
      ]),
    });
    t.after(run.remove);
    assert.deepEqual(
      run.data("codon.started").map((s) => [s.codonId, s.sessionId, s.previousSessionId]),
      [
        ["setup", "s-1", undefined],
        ["step#0", "s-1", "s-1"],
        ["step#1", "s-1", "s-1"],
        ["wrap", "s-1", "s-1"],
      ],
    );
  });

  it("on the first codon, starts a fresh session, as the validator's warning says", async (t) => {
    const run = await runHankForTest({ hank: hankOf([scriptedCodon("first", "@say hi", continuing)]) });
    t.after(run.remove);
    assert.deepEqual(
      run.warnings.map((w) => w.path.join(".")),
      ["hank.0.continuationMode"],
    );
    assert.deepEqual(lifecycle(run.events), ["started first", "completed first ok"]);
    assert.equal(run.data("codon.started")[0]?.previousSessionId, undefined);
    assert.equal(run.result.exitCode, 0);
  });
});
