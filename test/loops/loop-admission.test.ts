import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { driveRun } from "../../src/loops/coordinator/drive-run.ts";
import { INCREMENT, type LoopFixture, loopFixture } from "./loop-fixture.ts";

/**
 * Admission as an operator meets it: a missing condition or a brake the body could edit refuses the
 * start unless it is admitted anyway with a real reason; overrides only tighten; every clamp is said.
 */
const PASS = "#!/bin/sh\nexit 0\n";
const gate = (run: string, extra = "") =>
  `[contract]\ngoal = "g"\niteration_cap = 3\n[[gates]]\nid = "check"\nkind = "command"\nrun = ["${run}"]\n${extra}`;

async function withFixture<T>(fx: LoopFixture, work: (fx: LoopFixture) => Promise<T>): Promise<T> {
  try {
    return await work(fx);
  } finally {
    await fx.remove();
  }
}

describe("admission", { concurrency: 2 }, () => {
  test("a gate inside the body's data is refused; admitted anyway, the warning stays with the run", async () => {
    const fx = await loopFixture({ body: [INCREMENT], toml: gate("./data/check.sh"), scripts: {} });
    fx.write("data/check.sh", "#!/bin/sh\nexit 1\n", true);
    await withFixture(fx, async () => {
      const refused = await fx.admit();
      assert.equal(refused.kind === "refused" && refused.code, "brake-in-workspace");
      assert.match(
        refused.kind === "refused" ? refused.message : "",
        /gate check .*data\/check\.sh.*--admit-anyway/s,
      );
      const admitted = await fx.admit({ admitAnyway: "the data is a scratch copy" });
      if (admitted.kind !== "admitted") throw new Error(admitted.kind);
      assert.deepEqual(
        admitted.notices.map((n) => n.code),
        ["brake-in-workspace"],
      );
      assert.equal(admitted.run.contract.admittedAnyway, "the data is a scratch copy");
      const event = (await fx.store.events(0, admitted.run.id)).find((e) => e.type === "run.admitted");
      assert.equal((event?.data.notices as unknown[] | undefined)?.length, 1);
    });
  });

  test("--admit-anyway needs a reason: an empty or blank one is refused", async () => {
    const fx = await loopFixture({ body: [INCREMENT], toml: `[contract]\ngoal = "g"\n` });
    await withFixture(fx, async () => {
      for (const reason of ["", "   "]) {
        const outcome = await fx.admit({ admitAnyway: reason });
        assert.equal(
          outcome.kind === "refused" && outcome.code,
          "empty-admit-reason",
          JSON.stringify(reason),
        );
      }
    });
  });

  test("a Loop without a gate, admitted anyway, ends done: unverified, never gates_passed", async () => {
    const fx = await loopFixture({ body: [INCREMENT], toml: `[contract]\ngoal = "g"\n` });
    await withFixture(fx, async () => {
      const refused = await fx.admit();
      assert.equal(refused.kind === "refused" && refused.code, "not-admitted");
      const admitted = await fx.admit({ admitAnyway: "a person reads the result" });
      if (admitted.kind !== "admitted") throw new Error(admitted.kind);
      const end = await driveRun(admitted.run.id, fx.deps(), { follow: true });
      assert.equal(end.kind === "terminal" && `${end.run.state}: ${end.run.cause}`, "done: unverified");
    });
  });

  test("an override only tightens: a loosening is refused naming the definition's value", async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: gate("./check.sh", "max_revisions = 99\n"),
      scripts: { "check.sh": PASS },
    });
    await withFixture(fx, async () => {
      for (const overrides of [{ iteration_cap: 0 }, { iteration_cap: 4 }, { window: 50 }]) {
        const outcome = await fx.admit({ overrides });
        assert.equal(outcome.kind === "refused" && outcome.code, "loosened-limit", JSON.stringify(overrides));
      }
      const loosened = await fx.admit({ overrides: { iteration_cap: 0 } });
      assert.match(loosened.kind === "refused" ? loosened.message : "", /iteration_cap = 3/);
      const tightened = await fx.admit({ overrides: { iteration_cap: 2, window: 2 } });
      if (tightened.kind !== "admitted") throw new Error(JSON.stringify(tightened));
      assert.equal(tightened.run.contract.limits.iteration_cap, 2);
      // The gate's own max_revisions above the ceiling is reported, not clamped silently.
      assert.deepEqual(tightened.clamped, [
        "gate check: max_revisions = 99 is above the daemon ceiling; clamped to 64.",
      ]);
    });
  });
});

describe("actability and sedimentability, answered from the body", { concurrency: 2 }, () => {
  test("an agent whose harness or model cannot run here: actability missing, naming it", async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: gate("./check.sh"),
      scripts: { "check.sh": PASS },
    });
    await withFixture(fx, async () => {
      fx.write(
        "demo.loop.toml",
        `id = "demo"\nname = "Demo"\nowner = "tests"\ncadence = "manual"\nescalation = ["./notify.sh"]\nhank = "./hank"\ndata = "./data"\nmodel = "nobody/no-such-model"\n${gate("./check.sh")}`,
      );
      const outcome = await fx.admit();
      const row =
        outcome.kind === "refused"
          ? outcome.report?.rows.find((r) => r.condition === "actability")
          : undefined;
      assert.equal(row?.met, false);
      assert.match(row?.answer ?? "", /a body agent cannot run/);
    });
  });

  test("a body that keeps nothing and has no gate leaves only a chat log: sedimentability missing", async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: `[contract]\ngoal = "g"\n`,
      codon: { checkpointedFiles: [] },
    });
    await withFixture(fx, async () => {
      const outcome = await fx.admit();
      const rows = outcome.kind === "refused" ? outcome.report?.rows : undefined;
      assert.equal(rows?.find((r) => r.condition === "sedimentability")?.met, false);
      assert.match(rows?.find((r) => r.condition === "actability")?.answer ?? "", /run on scripted/);
    });
  });
});
