import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, test } from "node:test";
import { driveRun } from "../../src/loops/coordinator/drive-run.ts";
import { sha256 } from "../../src/loops/coordinator/pin-files.ts";
import { workspaceOf } from "../../src/loops/coordinator/run-body.ts";
import type { LoopRunRecord } from "../../src/loops/store/store-records.ts";
import { type LoopFixture, loopFixture } from "./loop-fixture.ts";

/**
 * "The loop is forbidden from editing its own P0": the files a run is admitted under are pinned
 * outside the body's run directory, read-only, and verified before every generation, gate and hook.
 * These bodies try to move their own brakes.
 */
const NEVER = "#!/bin/sh\necho 'never passes'\nexit 1\n";
const GATE = `[contract]\ngoal = "g"\niteration_cap = 3\n[[gates]]\nid = "never"\nkind = "command"\nrun = ["./gates/never.sh"]\n`;

function pinOf(run: LoopRunRecord, label: string) {
  const pin = run.contract.pins?.find((p) => p.label === label);
  if (pin === undefined) throw new Error(`no pin ${label}`);
  return pin;
}

async function admitted(fx: LoopFixture): Promise<LoopRunRecord> {
  const outcome = await fx.admit();
  if (outcome.kind !== "admitted") throw new Error(`not admitted: ${JSON.stringify(outcome)}`);
  return outcome.run;
}

describe("a pinned contract is verified", { concurrency: 2 }, () => {
  test("a body that rewrites its pinned gate ends the run failed: contract_tampered", async () => {
    // The body finds the pinned gate the way an agent with a shell could, and makes it pass.
    const body = '@run chmod u+w "$PINNED_GATE"; printf "#!/bin/sh\\nexit 0\\n" > "$PINNED_GATE"\n@say done';
    const fx = await loopFixture({ body: [body], toml: GATE, scripts: { "gates/never.sh": NEVER } });
    try {
      const run = await admitted(fx);
      const pin = pinOf(run, "gates/never.sh");
      const deps = fx.deps();
      const end = await driveRun(
        run.id,
        { ...deps, env: { ...deps.env, PINNED_GATE: pin.path } },
        {
          follow: true,
        },
      );
      assert.equal(end.kind, "terminal");
      const ended = end.kind === "terminal" ? end.run : run;
      assert.equal(`${ended.state}: ${ended.cause}`, "failed: contract_tampered");
      const tamper = (await fx.store.events(0, run.id)).find((e) => e.type === "run.contract_tampered");
      assert.deepEqual(tamper?.data, {
        label: "gates/never.sh",
        path: pin.path,
        expected: sha256(NEVER),
        found: sha256("#!/bin/sh\nexit 0\n"),
      });
      const endEvent = (await fx.store.events(0, run.id)).find((e) => e.type === "run.ended");
      assert.deepEqual(endEvent?.data, {
        state: "failed",
        cause: "contract_tampered",
        layers: { driver: "completed", goal: "error" },
      });
      // The gate never ran as rewritten: no generation was recorded with a passing gate.
      const gates = (await fx.store.generations(run.id)).flatMap((g) => g.facts.gates);
      assert.ok(gates.every((g) => g.verdict !== "pass"));
      // The escalation ran for the bad ending.
      assert.match(readFileSync(join(fx.dir, "notified.log"), "utf8"), /contract_tampered/);
    } finally {
      await fx.remove();
    }
  });

  test("a removed body file is found before the next generation", async () => {
    const body = '@run chmod u+w "$PINNED_BODY"; rm -f "$PINNED_BODY/hank.json"\n@say gone';
    const fx = await loopFixture({ body: [body], toml: GATE, scripts: { "gates/never.sh": NEVER } });
    try {
      const run = await admitted(fx);
      const pin = pinOf(run, "hank/ (body)");
      const deps = fx.deps();
      const end = await driveRun(
        run.id,
        { ...deps, env: { ...deps.env, PINNED_BODY: pin.path } },
        {
          follow: true,
        },
      );
      assert.equal(
        end.kind === "terminal" && `${end.run.state}: ${end.run.cause}`,
        "failed: contract_tampered",
      );
      const tamper = (await fx.store.events(0, run.id)).find((e) => e.type === "run.contract_tampered");
      assert.equal(tamper?.data.label, "hank/ (body)");
      assert.equal(tamper?.data.expected, pin.sha256);
    } finally {
      await fx.remove();
    }
  });

  test("the pinned copies are read-only and outside the run's directory", async () => {
    const fx = await loopFixture({ body: ["@say hi"], toml: GATE, scripts: { "gates/never.sh": NEVER } });
    try {
      const run = await admitted(fx);
      const pinnedDir = run.contract.pinnedDir ?? "";
      const fromWorkspace = relative(workspaceOf(run.dir), pinnedDir);
      assert.ok(
        !relative(run.dir, pinnedDir)
          .split("/")
          .every((part) => part !== ".."),
        fromWorkspace,
      );
      assert.ok(!existsSync(join(run.dir, "pinned")));
      for (const pin of run.contract.pins ?? []) {
        assert.equal(statSync(pin.path).mode & 0o222, 0, `${pin.label} has no write bit`);
      }
      assert.equal(statSync(pinnedDir).mode & 0o222, 0, "the pinned directory has no write bit");
      // Every gate and the definition run from the pinned copy.
      const gate = run.contract.gates[0];
      assert.equal(gate?.kind === "command" && gate.run[0], pinOf(run, "gates/never.sh").path);
    } finally {
      await fx.remove();
    }
  });

  test("a body that rewrites the original gate: this run is unaffected, the next start says what changed", async () => {
    const fx = await loopFixture({
      body: ['@run printf "#!/bin/sh\\nexit 0\\n" > "$ORIGINAL_GATE"\n@say loosened'],
      toml: GATE,
      scripts: { "gates/never.sh": NEVER },
    });
    try {
      const first = await admitted(fx);
      const deps = fx.deps();
      const env = { ...deps.env, ORIGINAL_GATE: join(fx.dir, "gates/never.sh") };
      const end = await driveRun(first.id, { ...deps, env }, { follow: true });
      // The run kept its pinned gate: it never passed, and the cap ended it.
      assert.equal(
        end.kind === "terminal" && `${end.run.state}: ${end.run.cause}`,
        "exhausted: iteration_cap",
      );
      const second = await admitted(fx);
      const notice = second.contract.notices?.find((n) => n.code === "definition-changed");
      assert.match(notice?.message ?? "", new RegExp(`Since run ${first.id}, .*gates/never\\.sh`));
      const admittedEvent = (await fx.store.events(0, second.id)).find((e) => e.type === "run.admitted");
      assert.deepEqual(
        (admittedEvent?.data.notices ?? []).map((n) => n.code),
        ["definition-changed"],
      );
    } finally {
      await fx.remove();
    }
  });

  test("a body never gets the store's address or the daemon's variables in its environment", async () => {
    const fx = await loopFixture({
      body: ["@run env > seen-env.txt\n@say looked"],
      toml: GATE,
      scripts: { "gates/never.sh": NEVER },
    });
    try {
      const run = await admitted(fx);
      const deps = fx.deps();
      const env = {
        ...deps.env,
        HANKWEAVE_LOOPS_STORE: "postgres://loops:store-secret@db/loops",
        HANKWEAVE_LOOPS_DB: "/somewhere/loops.db",
        HANKWEAVE_DAEMON_TOKEN: "daemon-secret",
      };
      await driveRun(run.id, { ...deps, env, report: () => undefined }, { follow: true });
      const seen = readFileSync(join(workspaceOf(run.dir), "seen-env.txt"), "utf8");
      assert.match(seen, /HANKWEAVE_LOOP_RUN=/);
      assert.doesNotMatch(seen, /store-secret|daemon-secret|loops\.db/);
    } finally {
      await fx.remove();
    }
  });
});
