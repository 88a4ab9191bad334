import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { PinnedContract } from "../../src/loops/model/contract.ts";
import { INCREMENT, type LoopFixture, loopFixture } from "./loop-fixture.ts";
import { runLoops } from "./loops-cli.ts";

/** The guardrails as an operator meets them through `hankweave loops`. */
const NEVER = "#!/bin/sh\nexit 1\n";
const GATE = `[contract]\ngoal = "g"\niteration_cap = 3\n[[gates]]\nid = "never"\nkind = "command"\nrun = ["./gates/never.sh"]\n`;

function cli(fx: LoopFixture, extraEnv: Record<string, string> = {}) {
  return (...argv: string[]) =>
    runLoops(["--db", join(fx.dir, "cli.db"), ...argv], {
      cwd: fx.dir,
      env: { PATH: process.env.PATH, HOME: fx.dir, HANKWEAVE_EXECUTIONS_DIR: join(fx.dir, "x"), ...extraEnv },
    });
}

async function withFixture(
  spec: Parameters<typeof loopFixture>[0],
  work: (fx: LoopFixture) => Promise<void>,
): Promise<void> {
  const fx = await loopFixture(spec);
  try {
    await work(fx);
  } finally {
    await fx.remove();
  }
}

describe("loops CLI guardrails", { concurrency: 2 }, () => {
  test("a tampered pinned gate: exit 4, and show names the file and both hashes", () =>
    withFixture(
      {
        body: ['@run chmod u+w "$PINNED_GATE"; echo "exit 0" >> "$PINNED_GATE"\n@say loosened'],
        toml: GATE,
        scripts: { "gates/never.sh": NEVER },
      },
      async (fx) => {
        const started = await cli(fx)("start", "demo.loop.toml");
        assert.equal(started.code, 0, started.stderr);
        const id = started.stdout.trim();
        const shown = await cli(fx)("show", id, "--json");
        const contract = (JSON.parse(shown.stdout) as { run: { contract: PinnedContract } }).run.contract;
        const pin = contract.pins?.find((p) => p.label === "gates/never.sh");
        const attached = await cli(fx, { PINNED_GATE: pin?.path ?? "" })("attach", id);
        assert.equal(attached.code, 4, attached.stderr);
        assert.match(attached.stderr, /failed \(contract_tampered\); layers: driver completed, goal error/);
        const text = (await cli(fx)("show", id)).stdout;
        assert.match(text, /outcome\s+failed: contract_tampered/);
        assert.match(text, /layers\s+driver completed, goal error/);
        assert.match(
          text,
          new RegExp(`tampered\\s+gates/never\\.sh .*expected sha256:${pin?.sha256}, found [0-9a-f]{64}`),
        );
        // A note on the ended run is refused: no generation would ever read it.
        const note = await cli(fx)("note", id, "please", "retry");
        assert.equal(note.code, 1);
        assert.match(note.stderr, /note refused, nothing recorded/);
        // gc keeps a failed run's sediment; with --all it removes the run with its pinned contract.
        await cli(fx)("gc", "--older-than", "0");
        assert.ok(existsSync(contract.pinnedDir ?? ""), "a failed run's pinned contract is kept");
        const gc = await cli(fx)("gc", "--older-than", "0", "--all");
        assert.match(gc.stdout, /removed 1 run/);
        assert.equal(existsSync(contract.pinnedDir ?? ""), false);
      },
    ));

  test("start refuses a blank admit-anyway reason and a loosening --set, naming the value", () =>
    withFixture({ body: [INCREMENT], toml: GATE, scripts: { "gates/never.sh": NEVER } }, async (fx) => {
      const blank = await cli(fx)("start", "demo.loop.toml", "--admit-anyway", "");
      assert.equal(blank.code, 1);
      assert.match(blank.stderr, /--admit-anyway needs a reason/);
      const loosen = await cli(fx)("start", "demo.loop.toml", "--set", "iteration_cap=0");
      assert.equal(loosen.code, 1);
      assert.match(loosen.stderr, /iteration_cap=0 would loosen the definition's iteration_cap = 3/);
      assert.equal((await cli(fx)("ls")).stdout.split("\n").filter((l) => l.startsWith("demo-")).length, 0);
    }));

  test("a gate in the body's data: refused at start; admitted anyway, run and show print the warning", () =>
    withFixture(
      {
        body: [INCREMENT],
        toml: GATE.replace("./gates/never.sh", "./data/never.sh").replace(
          "iteration_cap = 3",
          "iteration_cap = 1",
        ),
      },
      async (fx) => {
        fx.write("data/never.sh", NEVER, true);
        const refused = await cli(fx)("run", "demo.loop.toml");
        assert.equal(refused.code, 1);
        assert.match(refused.stderr, /could edit its own brakes/);
        const run = await cli(fx)("run", "demo.loop.toml", "--admit-anyway", "scratch data");
        assert.equal(run.code, 5, run.stderr);
        assert.match(run.stderr, /warning \(brake-in-workspace\): gate never/);
        const id = run.stdout.trim();
        const shown = (await cli(fx)("show", id)).stdout;
        assert.match(shown, /admitted anyway: scratch data/);
        assert.match(shown, /warning\s+brake-in-workspace: gate never/);
      },
    ));

  test("a run parked at a human gate names the verbs that park accepts", () =>
    withFixture(
      { body: [INCREMENT], toml: `[contract]\ngoal = "g"\n[[gates]]\nid = "look"\nkind = "human"\n` },
      async (fx) => {
        const run = await cli(fx)("run", "demo.loop.toml", "--exit-on-park");
        assert.equal(run.code, 2, run.stderr);
        const id = run.stdout.trim();
        assert.match(
          run.stderr,
          new RegExp(`needs-approval \\(human_gate\\); decide with \`hankweave loops approve ${id}\` or`),
        );
        assert.doesNotMatch(run.stderr, /resume\|approve/);
      },
    ));
});
