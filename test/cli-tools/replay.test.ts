import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runCli } from "../../src/cli/run-cli.ts";
import { REPO_ROOT } from "../fixtures/hankweave-cli.ts";
import { captureIo } from "./capture-io.ts";

/** Codon outcomes of an execution's journal: `<codonId>:<success>:<cost>`. */
function outcomes(execution: string): string[] {
  return readFileSync(join(execution, ".hankweave", "events", "events.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.includes('"type":"codon.completed"'))
    .map((line) => (JSON.parse(line) as { data: { codonId: string; success: boolean; cost: number } }).data)
    .map((data) => `${data.codonId}:${data.success}:${data.cost}`);
}

/** The tree id and subject of every checkpoint of the execution's newest run, oldest first. */
function checkpointTrees(execution: string): string[] {
  const gitDir = join(execution, ".hankweave", "checkpoints", ".hankweavecheckpoints");
  const refs = execFileSync("git", [
    `--git-dir=${gitDir}`,
    "for-each-ref",
    "--sort=-creatordate",
    "--format=%(refname)",
    "refs/heads/run/",
  ]);
  const newest = refs.toString().split("\n")[0] ?? "";
  const log = execFileSync("git", [
    `--git-dir=${gitDir}`,
    "log",
    "--reverse",
    "--first-parent",
    "--format=%T %s",
    newest,
  ]);
  return log.toString().trim().split("\n");
}

/**
 * `--replay`: a recorded scripted run of the revise-loop example (files written and appended, a loop
 * of three iterations) replayed with no agent: the same codon outcomes and the same git tree at every
 * checkpoint.
 */
describe("hankweave --replay", () => {
  const root = mkdtempSync(join(tmpdir(), "hankweave-replay-"));
  after(() => rmSync(root, { recursive: true, force: true }));
  const hank = join(root, "revise-loop");
  const recording = join(root, "recording");
  const base = join(root, "executions");
  const env = { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: base };

  before(async () => {
    cpSync(join(REPO_ROOT, "examples", "revise-loop"), hank, { recursive: true });
    const { io, err } = captureIo(root, env);
    assert.equal(await runCli([hank, "-e", recording, "--headless"], io), 0, err());
  });

  it("reproduces the outcomes and every checkpoint's tree, without running the agent", async () => {
    // Prompts that would now write something else: a replay never reads them.
    for (const name of readdirSync(join(hank, "prompts")))
      writeFileSync(join(hank, "prompts", name), "@say changed\n");
    const { io, err } = captureIo(root, env);
    assert.equal(await runCli(["--replay", recording, "--headless"], io), 0, err());
    assert.match(err(), /^\[REPLAY\] Replaying run [0-9a-f-]+ of .* \(7 sessions\)\n/);
    const [replayed] = readdirSync(base);
    const replay = join(base, replayed ?? "");
    assert.deepEqual(outcomes(replay), outcomes(recording));
    assert.deepEqual(checkpointTrees(replay), checkpointTrees(recording));
  });

  it("refuses -e beside --replay", async () => {
    const { io, err } = captureIo(root, env);
    assert.equal(await runCli(["--replay", recording, "-e", join(root, "x")], io), 1);
    assert.equal(err(), "Error: --replay and --execution cannot be used together.\n");
  });

  it("refuses a hank whose codon ids differ, listing the differences", async () => {
    const edited = JSON.parse(readFileSync(join(hank, "hank.json"), "utf8")) as { hank: { id: string }[] };
    const first = edited.hank[0];
    if (first !== undefined) first.id = "first-draft";
    const other = join(root, "edited.json");
    writeFileSync(other, JSON.stringify(edited));
    cpSync(join(hank, "prompts"), join(root, "prompts"), { recursive: true });
    const { io, err } = captureIo(root, env);
    assert.equal(await runCli(["--replay", recording, other, "--headless"], io), 1);
    assert.match(
      err(),
      /does not match the hank .*edited\.json:\n {2}recorded but not in the hank: draft\n {2}in the hank but not recorded: first-draft\n/,
    );
  });
});
