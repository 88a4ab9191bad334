import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { driveRun } from "../../src/loops/coordinator/drive-run.ts";
import { executionDirOf } from "../../src/loops/coordinator/run-body.ts";
import { isTerminalState } from "../../src/loops/model/run-states.ts";
import { countGate, INCREMENT, type LoopFixture, loopFixture } from "./loop-fixture.ts";

const CHILD = join(import.meta.dirname, "fixtures", "drive-child.ts");
const KILL_POINTS = 20;
const SPEC = {
  body: [
    INCREMENT,
    "@append log.txt generation $HANKWEAVE_LOOP_GENERATION\n@run echo $HANKWEAVE_LOOP_GENERATION >> gens.txt",
  ],
  toml: `[contract]\ngoal = "count to 4"\n[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`,
  scripts: { "check.sh": countGate(4) },
};

/** Progress of the run: its store events plus the lines of its body journal. */
async function progress(fx: LoopFixture, runId: string, runDir: string): Promise<number> {
  const journal = join(executionDirOf(runDir), ".hankweave", "events", "events.jsonl");
  const lines = existsSync(journal) ? readFileSync(journal, "utf8").split("\n").length : 0;
  return (await fx.store.events(0, runId)).length + lines;
}

function startChild(fx: LoopFixture, runId: string): ChildProcess {
  const env = { ...fx.deps().env, NODE_EXTRA_CA_CERTS: "" };
  return spawn(process.execPath, ["--import", "tsx", CHILD, join(fx.dir, "loops.db"), runId], {
    env,
    stdio: "ignore",
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

test("SIGKILL matrix: a driver killed at 20 points ends the run as an unkilled one, codons completed once", {
  timeout: 900_000,
}, async () => {
  const reference = await loopFixture(SPEC);
  let expected: string;
  try {
    const admitted = await reference.admit();
    if (admitted.kind !== "admitted") throw new Error(admitted.kind);
    const end = await driveRun(admitted.run.id, reference.deps(), { follow: true });
    expected = end.kind === "terminal" ? `${end.run.state}: ${end.run.cause}` : end.kind;
  } finally {
    await reference.remove();
  }
  const fx = await loopFixture(SPEC);
  try {
    const admitted = await fx.admit();
    if (admitted.kind !== "admitted") throw new Error(admitted.kind);
    const { id, dir } = admitted.run;
    let kills = 0;
    let last = 0;
    for (;;) {
      const run = await fx.store.getRun(id);
      if (run !== undefined && isTerminalState(run.state)) break;
      const child = startChild(fx, id);
      const done = exited(child);
      // Kill when the run has moved on by at least 2 units since the last kill (or let it finish).
      for (;;) {
        const now = await progress(fx, id, dir);
        const finished = await Promise.race([
          done.then(() => true),
          new Promise<boolean>((r) => setTimeout(() => r(false), 5)),
        ]);
        if (finished) break;
        if (kills < KILL_POINTS && now >= last + 2) {
          child.kill("SIGKILL");
          await done;
          kills += 1;
          last = now;
          break;
        }
      }
    }
    assert.ok(kills >= KILL_POINTS, `killed ${kills} times`);
    const run = await fx.store.getRun(id);
    assert.equal(`${run?.state}: ${run?.cause}`, expected);
    const journal = readFileSync(join(executionDirOf(dir), ".hankweave", "events", "events.jsonl"), "utf8");
    const completions = new Map<string, number>();
    for (const line of journal.split("\n")) {
      if (!line.includes('"codon.completed"')) continue;
      const event = JSON.parse(line) as { data: { codonId: string; success: boolean }; runId?: string };
      if (!event.data.success) continue;
      completions.set(event.data.codonId, (completions.get(event.data.codonId) ?? 0) + 1);
    }
    const generations = await fx.store.generations(id);
    for (const [codon, count] of completions)
      assert.equal(count, generations.length, `${codon} completed once per generation`);
  } finally {
    await fx.remove();
  }
});
