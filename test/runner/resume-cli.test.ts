import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type BundledCli, bundleCli } from "../crash/bundled-cli.ts";
import { runAndSignal } from "../crash/crash-driver.ts";
import { cliEnvironment } from "../fixtures/hankweave-cli.ts";
import { codon, sandbox, writeHank } from "../workspace/support.ts";

/**
 * Item: resume just works, through the CLI (bundled from the sources). A run stopped by Ctrl-C prints
 * how to resume; that command, run as printed from another directory, finishes the execution and
 * prints no resume line. The execution is the hank file's and the data's together: another hank file
 * on the same data gets its own; an edited hank at the same path fails closed naming the codons it
 * added and removed; raising a loop's limit on the finished execution runs the extra iterations, and
 * codons added to its hank run once the change is accepted (`-y`).
 */

/** Every codon checkpoints the whole workspace, so an interrupted one restarts clean. */
const ALL = { checkpointedFiles: ["**"] };

const body = (limit: number, last = "c") => [
  codon("a", "@append trail.txt a\n@sleep 60000", ALL),
  {
    type: "loop",
    id: "L",
    name: "L",
    terminateOn: { type: "iterationLimit", limit },
    codons: [codon("x", "@append trail.txt x", { ...ALL, onFailure: "ignore" })],
  },
  codon(last, `@append trail.txt ${last}`, ALL),
];

describe("resume just works", () => {
  const box = sandbox("resume-cli");
  let bin: BundledCli | undefined;
  const hankDir = join(box.root, "project");
  const dataDir = join(box.root, "data");
  const env = { HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: box.executions };
  const cli = (args: readonly string[], cwd = box.root) =>
    spawnSync(process.execPath, [bin?.path ?? "", ...args], {
      cwd,
      env: cliEnvironment(env),
      encoding: "utf8",
    });
  before(async () => {
    bin = await bundleCli();
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, "input.txt"), "data\n");
  });
  after(() => {
    bin?.remove();
    box.remove();
  });

  it("prints a resume command that works as printed from anywhere, and none once the run completed", async () => {
    writeHank(hankDir, body(2));
    const stopped = await runAndSignal(
      { bin: bin?.path ?? "", baseDir: box.executions, env },
      [hankDir, dataDir, "--headless"],
      { when: (e) => e.type === "tool.result" && e.data.codonId === "a", signal: "SIGINT" },
    );
    assert.equal(stopped.result.code, 0, stopped.result.stderr);
    const printed = /Resume: {4}hankweave (--execution \S+)/.exec(stopped.result.stderr)?.[1];
    assert.ok(printed !== undefined, stopped.result.stderr);
    // The agent's first attempt sleeps a minute; the resumed one must not: drop the sleep first.
    writeHank(hankDir, [codon("a", "@append trail.txt a", ALL), ...body(2).slice(1)]);
    const resumed = cli([...printed.split(" "), "--headless", "-y"], "/");
    assert.equal(resumed.status, 0, resumed.stderr);
    assert.match(resumed.stderr, /✓ Run completed/);
    assert.doesNotMatch(resumed.stderr, /Resume:/);
    const [execution] = readdirSync(box.executions);
    const trail = readFileSync(join(box.executions, execution ?? "", "agentRoot", "trail.txt"), "utf8");
    assert.equal(trail, "a\nx\nx\nc\n", "a re-ran clean after the Ctrl-C");
  });

  it("gives another hank file on the same data its own execution", () => {
    writeFileSync(join(hankDir, "hank-fast.json"), readFileSync(join(hankDir, "hank.json")));
    const variant = cli([join(hankDir, "hank-fast.json"), dataDir, "--headless"]);
    assert.equal(variant.status, 0, variant.stderr);
    assert.equal(readdirSync(box.executions).length, 2);
  });

  it("fails closed on an edited hank, naming the codons added and removed", () => {
    writeHank(hankDir, body(2, "d"));
    const edited = cli([hankDir, dataDir, "--headless"]);
    assert.equal(edited.status, 1);
    assert.match(
      edited.stderr,
      /changed since execution \S+ last ran\. Codons added: d\. Codons removed: c\./,
    );
  });

  it("runs the extra iterations when a finished loop's limit is raised", () => {
    writeHank(hankDir, [codon("a", "@append trail.txt a", ALL), ...body(4).slice(1)]);
    const raised = cli([hankDir, dataDir, "--headless", "-y"]);
    assert.equal(raised.status, 0, raised.stderr);
    assert.match(raised.stderr, /> x#2: X/);
    assert.match(raised.stderr, /> x#3: X/);
    assert.equal(originalTrail(), "a\nx\nx\nc\nx\nx\n");
  });

  it("runs the codons added to a finished execution's hank once the change is accepted", () => {
    const early = codon("early", "@append trail.txt early", ALL);
    const last = codon("e", "@append trail.txt e", ALL);
    writeHank(hankDir, [codon("a", "@append trail.txt a", ALL), early, ...body(4).slice(1), last]);
    const asked = cli([hankDir, dataDir, "--headless"]);
    assert.equal(asked.status, 1);
    assert.match(asked.stderr, /Codons added: early, e\./);
    const accepted = cli([hankDir, dataDir, "--headless", "-y"]);
    assert.equal(accepted.status, 0, accepted.stderr);
    assert.doesNotMatch(accepted.stderr, /nothing to do/);
    assert.equal(originalTrail(), "a\nx\nx\nc\nx\nx\nearly\ne\n", "the new codons ran, nothing else again");
  });

  /** The trail of the execution of hank.json (not hank-fast.json) on the data. */
  function originalTrail(): string {
    const original = readdirSync(box.executions)
      .map((name) => join(box.executions, name))
      .find((dir) =>
        readFileSync(join(dir, ".hankweave", "execution-meta.json"), "utf8").includes('hank.json"'),
      );
    return readFileSync(join(original ?? "", "agentRoot", "trail.txt"), "utf8");
  }
});
