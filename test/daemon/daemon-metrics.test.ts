import assert from "node:assert/strict";
import { hostname } from "node:os";
import { describe, test } from "node:test";
import { daemonMetrics } from "../../src/daemon/daemon-metrics.ts";
import { DriverTallies } from "../../src/daemon/driver-tallies.ts";
import { LoopFiguresReader } from "../../src/daemon/loop-figures-reader.ts";
import { driveRun } from "../../src/loops/coordinator/drive-run.ts";
import type { LoopStore } from "../../src/loops/store/loop-store.ts";
import { countGate, INCREMENT, type LoopFixture, loopFixture } from "../loops/loop-fixture.ts";

/**
 * Items: the daemon counts the leases its drivers take over and the runs they park for a human, and a
 * scrape reads the generations of a run that has ended only once.
 */
const CHECK = `[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`;
/** A driver on this host whose process cannot exist (above Linux's largest pid): a dead one. */
const DEAD_OWNER = `${hostname()}:${2 ** 23}:gone`;

async function admittedRun(fx: LoopFixture) {
  const admitted = await fx.admit();
  if (admitted.kind !== "admitted") throw new Error(`not admitted: ${admitted.kind}`);
  return admitted.run;
}

/** The store, counting the generations it is asked for. */
function countingGenerations(store: LoopStore): { store: LoopStore; calls: () => number } {
  let calls = 0;
  const counted = new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property !== "generations" || typeof value !== "function") {
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (...args: Parameters<LoopStore["generations"]>) => {
        calls += 1;
        return target.generations(...args);
      };
    },
  });
  return { store: counted, calls: () => calls };
}

describe("the daemon's counters and figures", () => {
  test("a lease taken over from a dead driver and a budget escalation are counted and exported", async () => {
    const fx = await loopFixture({
      body: [`${INCREMENT}\n@usage input=600 output=100`],
      toml: `[contract]\ngoal = "g"\n[contract.budget]\ntokens = 1000\non_exceeded = "escalate"\n${CHECK}`,
      scripts: { "check.sh": countGate(3) },
    });
    try {
      const tallies = new DriverTallies();
      const run = await admittedRun(fx);
      assert.notEqual(await fx.store.acquireLease(run.id, DEAD_OWNER, Date.now(), 600_000), null);
      const end = await driveRun(run.id, fx.deps({ notice: tallies.notice }), { follow: false });
      assert.equal(end.kind === "waiting" && end.run.parkReason, "budget_escalated");
      assert.deepEqual(tallies.takeovers(), [{ labels: { loop: "demo", from: "dead" }, value: 1 }]);
      assert.deepEqual(tallies.escalations(), [
        { labels: { loop: "demo", reason: "budget_escalated" }, value: 1 },
      ]);
      const page = await daemonMetrics(fx.store, tallies)();
      assert.match(page.body, /hankweave_loop_lease_takeovers_total\{loop="demo",from="dead"\} 1/);
      assert.match(page.body, /hankweave_loop_escalations_total\{loop="demo",reason="budget_escalated"\} 1/);
      assert.match(page.body, /# TYPE hankweave_loop_escalations_total counter/);
      // A drive that finds the lease released takes nothing over.
      await driveRun(run.id, fx.deps({ notice: tallies.notice }), { follow: false });
      assert.equal(tallies.takeovers()[0]?.value, 1);
    } finally {
      await fx.remove();
    }
  });

  test("a scrape reads an ended run's generations once, a live run's every time", async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: `[contract]\ngoal = "g"\n${CHECK}`,
      scripts: { "check.sh": countGate(2) },
    });
    try {
      const ended = await admittedRun(fx);
      const end = await driveRun(ended.id, fx.deps(), { follow: false });
      assert.equal(end.kind === "terminal" && end.run.state, "done");
      const live = await admittedRun(fx);
      const counted = countingGenerations(fx.store);
      const reader = new LoopFiguresReader(counted.store);
      const first = await reader.read();
      assert.equal(counted.calls(), 2);
      const second = await reader.read();
      assert.equal(counted.calls(), 3, "only the live run's generations are read again");
      assert.deepEqual(second, first);
      assert.equal(first.generations.get("demo")?.get("completed"), 2);
      assert.equal(first.gateVerdicts.get("demo\tcheck\tpass"), 1);
      assert.equal(first.runsByState.get("done"), 1);
      assert.equal(first.runsByState.get(live.state), 1);
      assert.ok(await fx.store.deleteRun(ended.id));
      const third = await reader.read();
      assert.equal(third.runsByState.get("done"), undefined, "a deleted run is no longer counted");
      assert.equal(third.generations.get("demo")?.get("completed"), undefined);
    } finally {
      await fx.remove();
    }
  });
});
