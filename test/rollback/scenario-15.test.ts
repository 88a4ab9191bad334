import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { after as afterAll, before, describe, it } from "node:test";
import { after, type CliSandbox, codon, hankOf, sandbox } from "./support.ts";

/** Scenario 15 (reference section 5): checkpoints, rollback to a codon, a new run on a new branch. */
const HANK = hankOf([
  codon("a", "@write a.md from a\n@write shared.md v1", {
    checkpointedFiles: ["a.md", "shared.md"],
    rigSetup: [{ type: "command", command: { run: "echo rigged > rig.txt" } }],
  }),
  codon("b", "@write b.md from b\n@write shared.md v2", { checkpointedFiles: ["b.md", "shared.md"] }),
  codon("c", "@write c.md from c\n@write shared.md v3", { checkpointedFiles: ["c.md", "shared.md"] }),
]);

describe("scenario 15: checkpoints and rollback", () => {
  let box: CliSandbox;
  before(async () => {
    box = sandbox(HANK);
    const ran = await box.cli([box.hankDir, "--headless", "-e", box.exec]);
    assert.equal(ran.code, 0, ran.stderr);
  });
  afterAll(() => box.remove());

  it("lists rig-setup and completed checkpoints with their shas", async () => {
    const listed = await box.cli(["checkpoints", "-e", box.exec, "--json"]);
    assert.equal(listed.code, 0, listed.stderr);
    const lists = listed.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    assert.equal(lists.length, 1);
    const [list] = lists;
    assert.deepEqual(
      list.checkpoints.map((c: { codonId: string; checkpointType: string; status: string }) => [
        c.codonId,
        c.checkpointType,
        c.status,
      ]),
      [
        ["a", "rig-setup", "preparing"],
        ["a", "completed", "completed"],
        ["b", "completed", "completed"],
        ["c", "completed", "completed"],
      ],
    );
    for (const c of list.checkpoints) assert.match(c.sha, /^[0-9a-f]{40}$/);
    assert.equal(list.currentBranch, `run/${list.runId}`);
    const readable = await box.cli(["checkpoints", "-e", box.exec]);
    assert.match(
      readable.stdout,
      /^run \S+ \(branch run\/\S+, current\)\n {2}\* [0-9a-f]{7} {2}a {2}rig-setup /,
    );
  });

  it("rolls back to a's completed checkpoint, then the rerun runs b and c again on the new run", async () => {
    const before = box.journal().length;
    const rolled = await box.cli(["rollback", "a", "--type", "completed", "-e", box.exec]);
    assert.equal(rolled.code, 0, rolled.stderr);
    assert.match(
      rolled.stderr,
      /✓ Rolled back to a \(completed\) at [0-9a-f]{7}; run \S+ continues from there/,
    );
    assert.match(rolled.stderr, /Removed \(created since\): b\.md, c\.md/);
    assert.equal(box.file("b.md"), null);
    assert.equal(box.file("c.md"), null);
    assert.equal(box.file("shared.md"), "v1");
    assert.equal(box.file("a.md"), "from a");

    const events = box.journal();
    const types = events.slice(before).map((e) => e.type);
    assert.equal(types[0], "rollback.started");
    assert.equal(types.at(-1), "rollback.completed");
    const [started] = after(events, before, "rollback.started");
    assert.deepEqual(started?.codonsToProcess, ["b", "c"]);
    const [completed] = after(events, before, "rollback.completed");
    assert.ok(completed);
    assert.equal(completed.codonId, "a");
    assert.equal(completed.checkpointType, "completed");
    assert.equal(completed.autoRestart, false);
    assert.notEqual(completed.toRun, completed.fromRun);
    const branches = execFileSync(
      "git",
      [
        "--git-dir",
        join(box.exec, ".hankweave", "checkpoints", ".hankweavecheckpoints"),
        "branch",
        "--list",
        "--format=%(refname:short) %(objectname)",
      ],
      { encoding: "utf8" },
    );
    assert.ok(branches.includes(`run/${completed.toRun} ${completed.checkpoint}`), branches);

    const marker = box.journal().length;
    const rerun = await box.cli([box.hankDir, "--headless", "-e", box.exec]);
    assert.equal(rerun.code, 0, rerun.stderr);
    const later = box.journal();
    assert.deepEqual(
      after(later, marker, "codon.started").map((c) => c.codonId),
      ["b", "c"],
    );
    const [runStarted] = after(later, marker, "state.transition").filter(
      (t) => t.transitionType === "RunStarted",
    );
    assert.equal(runStarted?.runId, completed.toRun);
    assert.equal(box.file("shared.md"), "v3");
    assert.equal(box.file("c.md"), "from c");
  });

  it("rolls back by checkpoint prefix and restarts at once with --restart", async () => {
    const listed = await box.cli(["checkpoints", "-e", box.exec, "--json"]);
    const lists = listed.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const current = lists.at(-1);
    const bDone = current.checkpoints.find((c: { codonId: string }) => c.codonId === "b");
    const marker = box.journal().length;
    const rolled = await box.cli([
      "rollback",
      bDone.sha.slice(0, 7),
      "-e",
      box.exec,
      "--restart",
      "--headless",
    ]);
    assert.equal(rolled.code, 0, rolled.stderr);
    const events = box.journal();
    const [completed] = after(events, marker, "rollback.completed");
    assert.equal(completed?.codonId, "b");
    assert.equal(completed?.autoRestart, true);
    assert.deepEqual(
      after(events, marker, "codon.started").map((c) => c.codonId),
      ["c"],
    );
    const runs = after(events, marker, "state.transition").map((t) => `${t.transitionType} ${t.runId}`);
    assert.ok(runs.includes(`RunStarted ${completed?.toRun}`), runs.join(", "));
    assert.ok(runs.includes(`RunCompleted ${completed?.toRun}`), runs.join(", "));
    assert.match(rolled.stderr, /✓ Run completed/);
    assert.equal(box.file("shared.md"), "v3");
  });
});
