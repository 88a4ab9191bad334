import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { isTerminalState } from "../../src/events/loop-run-states.ts";
import { driveRun } from "../../src/loops/coordinator/drive-run.ts";
import { executionDirOf, workspaceOf } from "../../src/loops/coordinator/run-body.ts";
import { bundleDriver } from "./fixtures/bundle-driver.ts";
import { countGate, INCREMENT, type LoopFixture, loopFixture, until } from "./loop-fixture.ts";

/**
 * 20 kill points over two independent runs driven side by side (ten kills each). Each lane kills its
 * driver every STEP units of progress (store events + body journal lines; a run of three generations
 * makes about 90), the second lane offset by one unit, so that together they land at consecutive
 * moments of the first generations: mid-codon, between codons, in the gates and at the decision. A
 * kill costs a driver start and a resume (most of this test's time); a third run, driven in process
 * and never killed, is the reference every killed run must match.
 */
const LANES = 2;
const KILLS_PER_LANE = 10;
const STEP = 4;
const GENERATIONS = 3;
const SPEC = {
  body: [INCREMENT, "@run echo $HANKWEAVE_LOOP_GENERATION >> gens.txt\n@say logged"],
  toml: `[contract]\ngoal = "count to ${GENERATIONS}"\n[[gates]]\nid = "check"\nkind = "command"\nrun = ["./check.sh"]\n`,
  scripts: { "check.sh": countGate(GENERATIONS) },
};

interface LaneEnd {
  readonly outcome: string;
  readonly kills: number;
  readonly verdicts: string;
  readonly gens: string;
  /** How many times each body codon completed successfully, by codon id. */
  readonly completions: ReadonlyMap<string, number>;
  readonly generations: number;
}

/** Progress of the run: its store events plus the lines of its body journal. */
async function progress(fx: LoopFixture, runId: string, runDir: string): Promise<number> {
  const journal = join(executionDirOf(runDir), ".hankweave", "events", "events.jsonl");
  const lines = existsSync(journal) ? readFileSync(journal, "utf8").split("\n").length : 0;
  return (await fx.store.events(0, runId)).length + lines;
}

function startChild(fx: LoopFixture, child: string, runId: string): ChildProcess {
  const env = { ...fx.deps().env, NODE_EXTRA_CA_CERTS: "" };
  return spawn(process.execPath, [child, join(fx.dir, "loops.db"), runId], { env, stdio: "ignore" });
}

function exited(child: ChildProcess): Promise<true> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(true);
    else child.once("exit", () => resolve(true));
  });
}

/** Drives the run with driver processes, killing each at its lane's next kill point, to its end. */
async function killedRun(fx: LoopFixture, driver: string, runId: string, runDir: string, lane: number) {
  let kills = 0;
  let next = 2 + lane;
  for (;;) {
    const run = await fx.store.getRun(runId);
    if (run !== undefined && isTerminalState(run.state)) return kills;
    const child = startChild(fx, driver, runId);
    const done = exited(child);
    for (;;) {
      if (await Promise.race([done, sleep(40, false)])) break;
      if (kills < KILLS_PER_LANE && (await progress(fx, runId, runDir)) >= next) {
        child.kill("SIGKILL");
        await done;
        kills += 1;
        next += STEP;
        break;
      }
    }
  }
}

async function lane(driver: string | null, index: number): Promise<LaneEnd> {
  const fx = await loopFixture(SPEC);
  try {
    const admitted = await fx.admit();
    if (admitted.kind !== "admitted") throw new Error(admitted.kind);
    const { id, dir } = admitted.run;
    // The reference lane is driven in process, never killed: the outcome the others must match.
    const kills = driver === null ? 0 : await killedRun(fx, driver, id, dir, index);
    if (driver === null) await driveRun(id, fx.deps(), { follow: true });
    const run = await fx.store.getRun(id);
    const generations = await fx.store.generations(id);
    return {
      outcome: `${run?.state}: ${run?.cause}`,
      kills,
      verdicts: generations.map((g) => g.facts.gates.map((v) => v.verdict).join("+")).join(" "),
      gens: readFileSync(join(workspaceOf(dir), "gens.txt"), "utf8"),
      completions: codonCompletions(dir),
      generations: generations.length,
    };
  } finally {
    await fx.remove();
  }
}

function codonCompletions(runDir: string): Map<string, number> {
  const journal = readFileSync(join(executionDirOf(runDir), ".hankweave", "events", "events.jsonl"), "utf8");
  const completions = new Map<string, number>();
  for (const line of journal.split("\n")) {
    if (!line.includes('"codon.completed"')) continue;
    const event = JSON.parse(line) as { data: { codonId: string; success: boolean } };
    if (!event.data.success) continue;
    completions.set(event.data.codonId, (completions.get(event.data.codonId) ?? 0) + 1);
  }
  return completions;
}

test("SIGKILL matrix: a driver killed at 20 points ends each run as an unkilled one, codons completed once", {
  timeout: 600_000,
}, async () => {
  const driver = await bundleDriver();
  try {
    const lanes = await Promise.all([
      lane(null, 0),
      ...Array.from({ length: LANES }, (_, i) => lane(driver.path, i)),
    ]);
    const [reference, ...killed] = lanes;
    assert.ok(reference !== undefined);
    assert.equal(reference.outcome, "done: gates_passed");
    assert.equal(
      killed.reduce((sum, l) => sum + l.kills, 0),
      LANES * KILLS_PER_LANE,
    );
    for (const end of killed) {
      assert.equal(end.outcome, reference.outcome);
      assert.equal(end.generations, reference.generations);
      assert.equal(end.verdicts, reference.verdicts);
      // The workspace saw each generation's side effect once: a restarted codon began from its checkpoint.
      assert.equal(end.gens, reference.gens);
      for (const [codon, count] of end.completions)
        assert.equal(count, end.generations, `${codon} completed once per generation`);
      assert.equal(end.completions.size, SPEC.body.length);
    }
  } finally {
    driver.remove();
  }
});

test("on_interrupted = ask: a generation a killed driver left parks needs-approval; approving resumes it", {
  timeout: 300_000,
}, async () => {
  const fx = await loopFixture({
    body: [`@run touch "$HOME/entered"; [ -f "$HOME/release" ] || sleep 60\n${INCREMENT}`],
    toml: `on_interrupted = "ask"\n${SPEC.toml.replace(`count to ${GENERATIONS}`, "count to 1")}`,
    scripts: { "check.sh": countGate(1) },
  });
  const driver = await bundleDriver();
  try {
    const admitted = await fx.admit();
    if (admitted.kind !== "admitted") throw new Error(admitted.kind);
    const { id, dir } = admitted.run;
    const child = startChild(fx, driver.path, id);
    const done = exited(child);
    await until(async () => existsSync(join(fx.dir, "entered")), "the body under way");
    child.kill("SIGKILL");
    await done;
    fx.write("release", "");
    const driving = driveRun(id, fx.deps(), { follow: true });
    const parked = await until(async () => {
      const run = await fx.store.getRun(id);
      return run?.state === "needs-approval" ? run : undefined;
    }, "the park");
    assert.equal(parked.parkReason, "interrupted");
    await fx.store.addCommand(id, { type: "approve", by: "ana" }, new Date().toISOString());
    const end = await driving;
    assert.equal(end.kind === "terminal" && `${end.run.state}: ${end.run.cause}`, "done: gates_passed");
    const generations = await fx.store.generations(id);
    assert.deepEqual(
      generations.map((g) => g.number),
      [1],
      "the interrupted generation kept its number",
    );
    assert.equal(codonCompletions(dir).get("step1"), 1);
    // The generation keeps both attempts' layers: the one the kill interrupted, then the restart.
    assert.deepEqual(
      generations[0]?.layers.map((l) => [l.codonId, l.attempt, l.codon, l.stream]),
      [
        ["step1", 1, "interrupted", "interrupted"],
        ["step1", 2, "completed", "completed"],
      ],
    );
  } finally {
    driver.remove();
    await fx.remove();
  }
});

test("a machine without git: the body cannot start and the run ends blocked missing_dependency", {
  timeout: 300_000,
}, async () => {
  const fx = await loopFixture({ ...SPEC, toml: SPEC.toml.replace(`count to ${GENERATIONS}`, "count to 1") });
  const driver = await bundleDriver();
  try {
    // A PATH with the shell tools the gate uses and no git: the runner refuses to start the body.
    const bin = join(fx.dir, "bin");
    mkdirSync(bin);
    for (const tool of ["sh", "cat", "echo", "["]) {
      const found = ["/usr/bin", "/bin"].map((d) => join(d, tool)).find((p) => existsSync(p));
      if (found !== undefined) symlinkSync(found, join(bin, tool));
    }
    const admitted = await fx.admit();
    if (admitted.kind !== "admitted") throw new Error(admitted.kind);
    const child = spawn(process.execPath, [driver.path, join(fx.dir, "loops.db"), admitted.run.id], {
      env: { ...fx.deps().env, PATH: bin },
      stdio: "ignore",
    });
    await exited(child);
    const run = await fx.store.getRun(admitted.run.id);
    assert.equal(`${run?.state}: ${run?.cause}`, "blocked: missing_dependency");
    const [generation] = await fx.store.generations(admitted.run.id);
    assert.match(String(generation?.facts.body.kind === "blocked" && generation.facts.body.message), /git/);
  } finally {
    driver.remove();
    await fx.remove();
  }
});
