import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { RUN_PACK_DIR } from "../../src/checkpoint/git/run-pack.ts";
import { executionLayout } from "../../src/workspace/execution-layout.ts";
import { REPO_ROOT } from "../fixtures/hankweave-cli.ts";
import { type BundledCli, bundleCli } from "./bundled-cli.ts";
import { type DriverOptions, runAndSignal, runBin } from "./crash-driver.ts";
import { checkAfterKill, checkCompleted, type Reference, referenceOf } from "./crash-invariants.ts";
import { CHAINS, type Chain, type KillPoint } from "./kill-points.ts";
import { applyRebuild, checkCancelled } from "./kill-steps.ts";

/**
 * The crash matrix: the CLI (bundled from the current sources) runs test/fixtures/crash-loop (a rigged
 * first codon, a three-iteration loop of two codons and a closing codon, each appending to trail.txt)
 * and is signalled at a chosen point, then run again with the same command. Each chain signals one
 * execution several times at later and later points, so every rerun first recovers the previous
 * interruption; the last rerun must complete. SIGKILL chains kill the whole process group (a dying
 * machine); one chain sends SIGINT (Ctrl-C) instead, once with a forced second Ctrl-C; one kills six
 * times in a row: mid-codon, four times inside recovery, then mid-codon again. After every signal the journal and the snapshot are checked; at the
 * end every invariant, and the workspace and each checkpoint are byte for byte those of an
 * uninterrupted run (crash-invariants.ts).
 */

const HANK = join(REPO_ROOT, "test", "fixtures", "crash-loop");
const ARGS = [HANK, "--headless"];
/** Two chains at a time: the machine has two cores, and each chain is a sequence of CLI runs. */
const PARALLEL = 2;

interface ChainReport {
  readonly notes: string[];
  readonly kills: number;
  readonly interrupts: number;
  /** Signals after which the run's pack held checkpoints not sealed yet (the rerun's recovery seals them). */
  readonly unsealed: number;
}

/** Whether the execution's checkpoint store holds a run pack not sealed yet (see `RunPack`). */
function hasUnsealedRunPack(executionDir: string): boolean {
  const dir = join(executionLayout(executionDir).checkpointGitDir, RUN_PACK_DIR);
  return existsSync(dir) && readdirSync(dir).length > 0;
}

function driverFor(bin: string, baseDir: string): DriverOptions {
  return { bin, baseDir, env: { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: baseDir } };
}

async function signalAt(
  point: KillPoint,
  driver: DriverOptions,
): Promise<{ note: string; dir: string; hit: boolean; unsealed: boolean }> {
  const run = await runAndSignal(driver, ARGS, point.trigger);
  const finished = run.result.code === 0 && !run.signalled;
  if (!run.signalled && !(point.mayFinish === true && finished)) {
    assert.fail(`${point.label}: not signalled (exit ${run.result.code})\n${run.result.stderr}`);
  }
  assert.ok(run.journal !== undefined, `${point.label}: the execution exists`);
  const dir = dirname(dirname(dirname(run.journal)));
  let how = run.signalled ? "signalled" : "finished";
  if (point.trigger.signal === "SIGINT" && run.signalled) how = await checkCancelled(run, dir, point);
  else if (run.signalled || point.rebuild !== undefined) how = applyRebuild(point, run.journal);
  await checkAfterKill(dir);
  const unsealed = hasUnsealedRunPack(dir);
  return {
    note: `${point.label}: ${how}${unsealed ? ", run pack unsealed" : ""}`,
    dir,
    hit: run.signalled,
    unsealed,
  };
}

async function runChain(
  chain: Chain,
  bin: string,
  baseDir: string,
  reference: Reference,
): Promise<ChainReport> {
  const driver = driverFor(bin, baseDir);
  const notes: string[] = [];
  let executionDir: string | undefined;
  let kills = 0;
  let interrupts = 0;
  let unsealed = 0;
  for (const point of chain.points) {
    const step = await signalAt(point, driver);
    executionDir = step.dir;
    notes.push(step.note);
    if (step.hit && point.trigger.signal === "SIGKILL") kills++;
    if (step.hit && point.trigger.signal === "SIGINT") interrupts++;
    if (step.unsealed) unsealed++;
  }
  const last = await runBin(driver, ARGS);
  assert.equal(last.code, 0, last.stderr);
  assert.ok(executionDir !== undefined);
  const { state } = await checkCompleted(executionDir, reference, chain.cancels === true);
  notes.push(`runs: ${state.runs.map((r) => r.status).join(", ")}`);
  return { notes, kills, interrupts, unsealed };
}

/** Runs the chains `PARALLEL` at a time; every chain runs to its end even when one fails. */
async function runAll(
  run: (chain: Chain, index: number) => Promise<ChainReport>,
): Promise<PromiseSettledResult<ChainReport>[]> {
  const results: PromiseSettledResult<ChainReport>[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < CHAINS.length; index = next++) {
      const chain = CHAINS[index];
      if (chain === undefined) continue;
      results[index] = await run(chain, index).then(
        (value) => ({ status: "fulfilled", value }) as const,
        (reason: unknown) => ({ status: "rejected", reason }) as const,
      );
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return results;
}

describe("the crash matrix: signals at many points of a run with a loop, then the same command again", () => {
  const root = mkdtempSync(join(tmpdir(), "hw-crash-"));
  let bin: BundledCli | undefined;
  let reference: Reference | undefined;
  before(async () => {
    bin = await bundleCli();
    const baseDir = join(root, "uninterrupted");
    const run = await runBin(driverFor(bin.path, baseDir), ARGS);
    assert.equal(run.code, 0, run.stderr);
    const [dir] = readdirSync(baseDir);
    reference = await referenceOf(join(baseDir, dir ?? ""));
  });
  after(() => {
    bin?.remove();
    rmSync(root, { recursive: true, force: true });
  });

  it("every codon completes once, and the workspace and checkpoints are the uninterrupted run's", {
    timeout: 300_000,
  }, async (t) => {
    const path = bin?.path ?? "";
    const expected = reference;
    assert.ok(expected !== undefined);
    assert.equal(
      expected.files.get("trail.txt"),
      ["setup", "x", "y", "x", "y", "x", "y", "final"].map((id) => `${id} begin\n${id} end\n`).join(""),
    );
    const settled = await runAll((chain, index) =>
      runChain(chain, path, join(root, `chain-${index}`), expected),
    );
    let kills = 0;
    let interrupts = 0;
    let unsealed = 0;
    for (const [index, outcome] of settled.entries()) {
      t.diagnostic(`${CHAINS[index]?.name}:`);
      if (outcome.status === "rejected") throw outcome.reason;
      kills += outcome.value.kills;
      interrupts += outcome.value.interrupts;
      unsealed += outcome.value.unsealed;
      for (const note of outcome.value.notes) t.diagnostic(`  ${note}`);
    }
    t.diagnostic(`${kills} SIGKILLs and ${interrupts} SIGINTs landed; ${unsealed} left a run pack unsealed`);
    assert.ok(kills >= 30, `${kills} kills landed`);
    assert.ok(interrupts >= 3, `${interrupts} interrupts landed`);
    // Checkpoints are sealed at most a second late: kills right after a codon's end find them unsealed,
    // and the reruns' recovery must seal them for the checkpoints above to match.
    assert.ok(unsealed >= 1, "some kill left checkpoints in an unsealed run pack");
  });
});
