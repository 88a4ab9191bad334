import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { driveRun } from "../../src/loops/coordinator/drive-run.ts";
import { countGate, INCREMENT, type LoopSpec, loopFixture } from "./loop-fixture.ts";

const GATE = `[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`;

async function outcomeOf(spec: LoopSpec) {
  const fx = await loopFixture(spec);
  try {
    const admitted = await fx.admit();
    if (admitted.kind !== "admitted") throw new Error(`not admitted: ${admitted.kind}`);
    const end = await driveRun(admitted.run.id, fx.deps(), { follow: true });
    if (end.kind !== "terminal") throw new Error(`not terminal: ${end.kind}`);
    const generations = await fx.store.generations(admitted.run.id);
    return { outcome: `${end.run.state}: ${end.run.cause}`, generations, run: end.run };
  } finally {
    await fx.remove();
  }
}

describe("the running-time clocks", { concurrency: 3 }, () => {
  test("no node ends for inactivity_sec while none runs (a long retry backoff): stalled inactivity", async () => {
    const { outcome, generations } = await outcomeOf({
      body: ["@fail API Error: 503 Service Unavailable"],
      codon: { onFailure: "retry", retryConfig: { maxAttempts: 3, delayMs: 60_000, maxDelayMs: 60_000 } },
      toml: `[contract]\ngoal = "g"\n[contract.no_progress]\ninactivity_sec = 1\n${GATE}`,
      scripts: { "check.sh": "#!/bin/sh\nexit 1\n" },
    });
    assert.equal(outcome, "stalled: inactivity");
    assert.deepEqual(
      generations.map((g) => [g.state, g.facts.inactive]),
      [["aborted", true]],
    );
  });

  test("a codon that runs longer than inactivity_sec is never stalled: it is a node still running", async () => {
    const { outcome } = await outcomeOf({
      body: [`@sleep 2200\n${INCREMENT}`],
      toml: `[contract]\ngoal = "g"\n[contract.no_progress]\ninactivity_sec = 1\n${GATE}`,
      scripts: { "check.sh": countGate(1) },
    });
    assert.equal(outcome, "done: gates_passed");
  });

  test("the wall-clock budget counts running time and halts: exhausted budget_wall_clock", async () => {
    const { outcome, run, generations } = await outcomeOf({
      body: [`@sleep 1500\n${INCREMENT}`],
      toml: `[contract]\ngoal = "g"\n[contract.budget]\nwall_clock_sec = 1\n${GATE}`,
      scripts: { "check.sh": countGate(5) },
    });
    assert.equal(outcome, "exhausted: budget_wall_clock");
    assert.equal(generations.length, 1);
    assert.ok(run.meters.runningMs >= 1000);
  });
});
