import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { driveRun } from "../../src/loops/coordinator/drive-run.ts";
import { workspaceOf } from "../../src/loops/coordinator/run-body.ts";
import { countGate, INCREMENT, type LoopFixture, loopFixture, until } from "./loop-fixture.ts";

const CHECK = `[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`;
const now = () => new Date().toISOString();

async function admittedRun(fx: LoopFixture) {
  const admitted = await fx.admit();
  if (admitted.kind !== "admitted") throw new Error(`not admitted: ${admitted.kind}`);
  return admitted.run;
}

function stateOf(fx: LoopFixture, runId: string, state: string) {
  return until(async () => {
    const run = await fx.store.getRun(runId);
    return run?.state === state ? run : undefined;
  }, `run ${runId} ${state}`);
}

function generationStarted(fx: LoopFixture, runId: string, number: number) {
  return until(
    async () =>
      (await fx.store.events(0, runId)).find(
        (e) => e.type === "generation.started" && e.data.number === number,
      ),
    `generation ${number}`,
  );
}

describe("operating a loop run", { concurrency: 3 }, () => {
  test("escalate -> needs-approval -> approve with an added amount -> done", async () => {
    const fx = await loopFixture({
      body: [`${INCREMENT}\n@usage input=600 output=100`],
      toml: `[contract]\ngoal = "g"\n[contract.budget]\ntokens = 1000\non_exceeded = "escalate"\n${CHECK}`,
      scripts: { "check.sh": countGate(3) },
    });
    try {
      const run = await admittedRun(fx);
      const driving = driveRun(run.id, fx.deps(), { follow: true });
      const parked = await stateOf(fx, run.id, "needs-approval");
      assert.equal(parked.parkReason, "budget_escalated");
      await fx.store.addCommand(run.id, { type: "approve", by: "ana" }, now());
      await fx.store.addCommand(run.id, { type: "approve", by: "ana", add: 5000 }, now());
      const end = await driving;
      assert.equal(end.kind === "terminal" && `${end.run.state}: ${end.run.cause}`, "done: gates_passed");
      assert.deepEqual(end.kind === "terminal" && end.run.amendments.map((a) => [a.budget, a.add, a.by]), [
        ["tokens", 5000, "ana"],
      ]);
      const commands = (await fx.store.events(0, run.id))
        .filter((e) => e.type === "run.command")
        .map((e) => e.data.outcome);
      assert.match(String(commands[0]), /must add an amount/);
      const notified = readFileSync(join(fx.dir, "notified.log"), "utf8");
      assert.match(notified, /"state":"needs-approval"/);
    } finally {
      await fx.remove();
    }
  });

  test("pause at a boundary, then resume", async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: `[contract]\ngoal = "g"\n${CHECK}`,
      scripts: { "check.sh": countGate(2) },
    });
    try {
      const run = await admittedRun(fx);
      const driving = driveRun(run.id, fx.deps(), { follow: true });
      await generationStarted(fx, run.id, 1);
      await fx.store.addCommand(run.id, { type: "pause", by: "ana" }, now());
      const paused = await stateOf(fx, run.id, "paused");
      assert.equal(paused.parkReason, "operator_pause");
      assert.equal((await fx.store.generations(run.id)).length, 1, "the generation under way finished first");
      await fx.store.addCommand(run.id, { type: "resume", by: "ana" }, now());
      const end = await driving;
      assert.equal(end.kind === "terminal" && end.run.state, "done");
    } finally {
      await fx.remove();
    }
  });

  test("stop mid-codon: the generation ends aborted, the run failed operator_stop", async () => {
    const fx = await loopFixture({
      body: ["@say working\n@sleep 120000"],
      toml: `[contract]\ngoal = "g"\n${CHECK}`,
      scripts: { "check.sh": countGate(1) },
    });
    try {
      const run = await admittedRun(fx);
      const driving = driveRun(run.id, fx.deps(), { follow: true });
      await generationStarted(fx, run.id, 1);
      await fx.store.addCommand(run.id, { type: "stop", by: "ana" }, now());
      const end = await driving;
      assert.equal(end.kind === "terminal" && `${end.run.state}: ${end.run.cause}`, "failed: operator_stop");
      const [generation] = await fx.store.generations(run.id);
      assert.equal(generation?.state, "aborted");
    } finally {
      await fx.remove();
    }
  });

  test("a human gate parks the run; approve passes it, reject blocks", async () => {
    const toml = `[contract]\ngoal = "g"\n${CHECK}[[gates]]\nid = "sign-off"\nkind = "human"\nprompt = "Ship it?"\n`;
    for (const [answer, expected] of [
      ["approve", "done: gates_passed"],
      ["reject", "blocked: human_rejected"],
    ] as const) {
      const fx = await loopFixture({ body: [INCREMENT], toml, scripts: { "check.sh": countGate(1) } });
      try {
        const run = await admittedRun(fx);
        const driving = driveRun(run.id, fx.deps(), { follow: true });
        const parked = await stateOf(fx, run.id, "needs-approval");
        assert.equal(parked.parkReason, "human_gate");
        await fx.store.addCommand(run.id, { type: answer, by: "ana" }, now());
        const end = await driving;
        assert.equal(end.kind === "terminal" && `${end.run.state}: ${end.run.cause}`, expected);
      } finally {
        await fx.remove();
      }
    }
  });

  test("a note in the inbox keeps a passing run going one more generation, traceably", async () => {
    const body = `${INCREMENT}\n@run printf '%s' "$HANKWEAVE_LOOP_INBOX" > inbox-$HANKWEAVE_LOOP_GENERATION.txt`;
    const fx = await loopFixture({
      body: [body],
      toml: `[contract]\ngoal = "g"\n${CHECK}`,
      scripts: { "check.sh": countGate(1) },
    });
    try {
      const run = await admittedRun(fx);
      const driving = driveRun(run.id, fx.deps(), { follow: true });
      await generationStarted(fx, run.id, 1);
      const note = await fx.store.addMessage({
        runId: run.id,
        kind: "operator_note",
        author: "ana",
        text: "also update the changelog",
        createdAt: now(),
      });
      const end = await driving;
      assert.equal(end.kind === "terminal" && end.run.state, "done");
      const generations = await fx.store.generations(run.id);
      assert.equal(generations.length, 2);
      assert.deepEqual(generations[1]?.readMessages, [note]);
      const inbox = readFileSync(join(workspaceOf(run.dir), "inbox-2.txt"), "utf8");
      assert.match(inbox, /operator_note #\d+ from ana\] also update the changelog/);
    } finally {
      await fx.remove();
    }
  });

  test("an agent editing the definition or a gate script mid-run changes nothing", async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: `[contract]\ngoal = "g"\n${CHECK}`,
      scripts: { "check.sh": countGate(2) },
    });
    try {
      const gate = join(fx.dir, "check.sh");
      const definition = join(fx.dir, "demo.loop.toml");
      fx.write(
        "hank/hank.json",
        readFileSync(join(fx.dir, "hank/hank.json"), "utf8").replace(
          "@say counted",
          `@run printf '#!/bin/sh\\\\nexit 0\\\\n' > ${gate}; echo 'iteration_cap = 1' >> ${definition}\\n@say counted`,
        ),
      );
      const run = await admittedRun(fx);
      const end = await driveRun(run.id, fx.deps(), { follow: true });
      assert.equal(readFileSync(gate, "utf8"), "#!/bin/sh\nexit 0\n", "the agent did edit the original");
      assert.equal(end.kind === "terminal" && end.run.state, "done");
      assert.equal(
        (await fx.store.generations(run.id)).length,
        2,
        "the pinned gate still asked for a count of 2 (the edited one passes at once)",
      );
      assert.ok(Object.keys(run.contract.hashes).some((path) => path === "check.sh"));
    } finally {
      await fx.remove();
    }
  });
});

describe("admission", { concurrency: 2 }, () => {
  test("a duplicate start returns the existing run; the contract is clamped by ceilings", async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: `[contract]\ngoal = "g"\n[contract.no_progress]\nwindow = 50\n${CHECK}`,
      scripts: { "check.sh": countGate(9) },
    });
    try {
      const first = await fx.admit({
        idempotencyKey: "ticket-42",
        limitConfig: { ceilings: { iteration_cap: 2 } },
      });
      assert.equal(first.kind, "admitted");
      if (first.kind !== "admitted") return;
      assert.equal(first.run.contract.limits.window, 30);
      assert.equal(first.run.contract.limits.iteration_cap, 2);
      assert.equal(first.clamped.length, 2);
      const again = await fx.admit({ idempotencyKey: "ticket-42" });
      assert.equal(again.kind === "duplicate" && again.run.id, first.run.id);
      const end = await driveRun(first.run.id, fx.deps(), { follow: true });
      assert.equal(
        end.kind === "terminal" && `${end.run.state}: ${end.run.cause}`,
        "exhausted: iteration_cap",
      );
    } finally {
      await fx.remove();
    }
  });

  test("queue: a second start waits queued and is promoted when the first ends", async () => {
    const fx = await loopFixture({
      body: [INCREMENT],
      toml: `[trigger]\nconcurrency = "queue"\n[contract]\ngoal = "g"\n${CHECK}`,
      scripts: { "check.sh": countGate(1) },
    });
    try {
      const first = await admittedRun(fx);
      const second = await fx.admit();
      assert.equal(second.kind === "admitted" && second.run.state, "queued");
      if (second.kind !== "admitted") return;
      await driveRun(first.id, fx.deps(), { follow: true });
      assert.equal((await fx.store.getRun(second.run.id))?.state, "running");
      const end = await driveRun(second.run.id, fx.deps(), { follow: true });
      assert.equal(end.kind === "terminal" && end.run.state, "done");
    } finally {
      await fx.remove();
    }
  });

  test("a loop missing an admission condition is refused unless admitted anyway", async () => {
    const fx = await loopFixture({ body: [INCREMENT], toml: `[contract]\ngoal = "g"\n`, scripts: {} });
    try {
      const refused = await fx.admit();
      assert.equal(refused.kind, "refused");
      assert.match(refused.kind === "refused" ? refused.message : "", /verifiability/);
      const forced = await fx.admit({ admitAnyway: "a spike" });
      assert.equal(forced.kind === "admitted" && forced.run.contract.admittedAnyway, "a spike");
    } finally {
      await fx.remove();
    }
  });
});
